// The import's events one by one: each event of the import shape checked and turned into a staged
// event row (from a record, or from a worker's packed block), its recurrence and cost; the checks
// that link events to venues, organizers and terms once all records are in are links.ts's. The other
// records, and what every record shares: post-records.ts. ImportBuilder (index.ts) drives it, from
// a whole object, a streamed file, or the packed blocks of a parallel import's workers.

import { naiveFromString, naiveToString } from '../engine/naive-time.ts';
import type { EventRecord } from '../engine/records.ts';
import { RowParts, type StagedEvent } from '../engine/event-table.ts';
import {
  BlockMaps,
  FLAGS_OF,
  internPacked,
  NO_COST,
  POOL_ABBR,
  POOL_CODE,
  POOL_POSITION,
  POOL_SYMBOL,
  POOL_ZONE,
} from './blocks.ts';
import { parseCost } from '../api/wordpress/cost.ts';
import { computeDatesMs } from '../api/events/write.ts';
import { asId } from '../api/wordpress/params.ts';
import { CalendarError } from '../api/wordpress/errors.ts';
import { parseRecurrence } from '../recurrence/index.ts';
import { storedOf } from '../recurrence/stored.ts';
import {
  B_NO_SLUG,
  P_AUTHOR,
  P_CATEGORIES,
  P_CODE,
  P_COST,
  P_EXTRA,
  P_FLAGS,
  P_ID,
  P_INTS,
  P_NONE,
  P_ORGANIZERS,
  P_PARENT,
  P_POSITION,
  P_STATUS,
  P_STRINGS,
  P_SYMBOL,
  P_TAGS,
  P_VENUES,
  P_ZONE,
  P_ABBR,
  P_CATEGORIES_HASH,
  P_ORGANIZERS_HASH,
  P_SLUG_HASH,
  P_TITLE_HASH,
  P_TAGS_HASH,
  type PackedEvents,
} from './pack.ts';
import {
  P_SLUG_AT,
  P_SLUG_END,
  P_TEXT_AT,
  P_TEXT_END,
  P_TEXT_SLUG,
  P_TEXT_WEB,
  P_TITLE_AT,
  P_TITLE_END,
} from './pack-texts.ts';
import { bad, flag, req, str, validUrl, type Rec } from './local.ts';
import { PostRecords } from './post-records.ts';
import { TitleIds } from './titles.ts';
import { EventLinks } from './links.ts';

/** Builds engine records out of the import shape; `fail` carries the resource, index and id. */
export class Importer extends PostRecords {
  // (a calendar without events has no slugs: its slug lookup is not built for nothing)
  private readonly eventSlugTaken = (s: string): boolean =>
    this.core.engine.eventRowCount > 0 && this.core.engine.eventRowBySlug(s) !== -1;

  event(r: Rec): void {
    const base = this.postBase(r, 'event', 'title', this.eventSlugTaken);
    this.table.appendStaged(this.eventFields(r, base, 0), this.dates);
  }

  /**
   * The packed event k of a worker's block (pack.ts: the record-local checks passed), with
   * the checks and lookups that need the calendar, in the order event() makes them, written into
   * the table's columns as event() would write it (appendParts). `extra`: its entry in p.extras;
   * `at`: where its link lists begin in p.links; `bm`: the block's pool indexes and costs as the
   * table has them. Returns where the next event's link lists begin.
   */
  eventPacked(
    p: PackedEvents,
    k: number,
    extra: PackedEvents['extras'][number] | undefined,
    at: number,
    bm: BlockMaps,
  ): number {
    const i = k * P_INTS,
      ints = p.i32,
      s = k * P_STRINGS,
      strs = p.strs,
      t = this.table,
      row = this.parts;
    const givenId = ints[i + P_ID];
    const id = this.takeId(givenId === P_NONE ? undefined : givenId, 'event');
    const flags = ints[i + P_FLAGS];
    // null: the slug as wanted (none when B_NO_SLUG)
    const slug = (flags & B_NO_SLUG) !== 0 ? null : this.packedSlug(p, bm, i, id);
    row.imageId = extra?.image === undefined ? 0 : this.image({ image: extra.image });
    const costAt = ints[i + P_COST];
    const cost = costAt === P_EXTRA ? bm.costOf(this.cost(extra!.cost)) : bm.cost(costAt);
    const symbol = ints[i + P_SYMBOL],
      position = ints[i + P_POSITION];
    row.id = id;
    row.authorId = ints[i + P_AUTHOR];
    row.status = ints[i + P_STATUS];
    row.flags = FLAGS_OF[flags & 127];
    row.parentId = ints[i + P_PARENT];
    row.timezone = bm.index(POOL_ZONE, ints[i + P_ZONE]);
    row.abbr = bm.index(POOL_ABBR, ints[i + P_ABBR]);
    row.currencySymbol = symbol === P_NONE ? bm.costSymbol(cost) : bm.index(POOL_SYMBOL, symbol);
    row.currencyPosition = position === P_NONE ? bm.costPosition(cost) : bm.index(POOL_POSITION, position);
    row.currencyCode = bm.index(POOL_CODE, ints[i + P_CODE]);
    row.costs = cost.costs;
    row.titleId = this.titles.id(
      bm.titles,
      ints[i + P_TITLE_AT],
      ints[i + P_TITLE_END],
      !p.titles.narrow,
      ints[i + P_TITLE_HASH],
    );
    const textAt = ints[i + P_TEXT_AT];
    if (textAt < 0) {
      row.coded = undefined;
      row.slug = slug ?? bm.slug(p, ints[i + P_SLUG_AT], ints[i + P_SLUG_END]);
      row.description = strs[s]!;
      row.excerpt = strs[s + 1]!;
      row.website = strs[s + 2];
    } else {
      row.slug = slug;
      row.coded = p.coded;
      row.codedAt = textAt;
      row.codedSlug = ints[i + P_TEXT_SLUG];
      row.codedWeb = ints[i + P_TEXT_WEB];
      row.codedEnd = ints[i + P_TEXT_END];
      row.codedWith = p.codedWith!;
    }
    row.lineage = extra?.lineage;
    const links = p.links;
    const nv = ints[i + P_VENUES],
      no = ints[i + P_ORGANIZERS],
      nc = ints[i + P_CATEGORIES],
      nt = ints[i + P_TAGS];
    row.venue = nv > 0 ? links[at] : 0;
    if (nv > 1) {
      const venues: number[] = [];
      for (let v = 0; v < nv; v++) venues.push(links[at + v]);
      row.venues = venues;
    } else row.venues = undefined;
    const lists = t.idLists;
    row.organizerIds = internPacked(lists, links, at + nv, no, ints[i + P_ORGANIZERS_HASH]);
    row.categoryIds = internPacked(lists, links, at + nv + no, nc, ints[i + P_CATEGORIES_HASH]);
    row.tagIds = internPacked(lists, links, at + nv + no + nc, nt, ints[i + P_TAGS_HASH]);
    t.appendParts(row, p.f64, k * 8);
    return at + nv + no + nc + nt;
  }

  /**
   * The unique slug of packed event k (at p.i32[i]), whose id is `id`: null when it is the slug as
   * wanted (found new by its bytes when the calendar has no events, else by its string).
   */
  private packedSlug(p: PackedEvents, bm: BlockMaps, i: number, id: number): string | null {
    const ints = p.i32,
      a = ints[i + P_SLUG_AT],
      e = ints[i + P_SLUG_END],
      h = ints[i + P_SLUG_HASH];
    if (
      a < e &&
      p.slugs.narrow &&
      this.core.engine.eventRowCount === 0 &&
      this.slugSet('event').addBytes(bm.slugs, a, e, h)
    )
      return null;
    const wanted = bm.slug(p, a, e);
    const slug = this.uniqueSlug('event', wanted, id, this.eventSlugTaken, h);
    return slug === wanted ? null : slug;
  }

  /** the row eventPacked fills */
  private readonly parts = new RowParts();
  /** the packed events' titles' indexes in the table's title dictionary */
  private readonly titles = new TitleIds(this.table.texts);

  /** The pool indexes and costs of a worker's block as this import's table has them. */
  blockMaps(p: PackedEvents): BlockMaps {
    return new BlockMaps(p, this.table, (v) => this.cost(v));
  }

  /** updates of existing events (CSV rows matching them), applied after the bulk load */
  readonly updates: EventRecord[] = [];

  /**
   * `r` as the new version of existing event `id` (The Events Calendar's CSV importer updates the
   * event a row matches): validated as a new event is; the event keeps its id, slug, author,
   * publication date, parent and image (unless the row has one); modified now.
   */
  eventUpdate(r: Rec, id: number): void {
    const row = this.core.engine.eventRow(id);
    if (row < 0 || this.kinds.has(id)) bad(`event ${id} cannot be updated twice by one import`);
    this.kinds.set(id, 'event');
    const old = this.core.engine.eventRecord(row);
    const base = {
      id,
      authorId: old.authorId,
      status: this.status(r),
      title: req(r, 'title'),
      description: str(r, 'description'),
      excerpt: str(r, 'excerpt'),
      slug: old.slug,
      imageId: r.image === undefined ? old.imageId : this.image(r),
      lineage: old.lineage,
    };
    const e = this.eventFields(r, base, old.parentId),
      d = this.dates;
    this.updates.push({
      ...e,
      startLocal: naiveToString(d[0]),
      endLocal: naiveToString(d[1]),
      startUtc: naiveToString(d[2]),
      endUtc: naiveToString(d[3]),
      date: old.date,
      dateUtc: old.dateUtc,
      modified: this.stamps.local,
      modifiedUtc: this.stamps.utc,
    });
  }

  /** An event's fields from `r` and `base` (what postBase read); its dates into this.dates[0..3]. */
  private eventFields(
    r: Rec,
    base: Omit<
      StagedEvent,
      | 'timezone'
      | 'timezoneAbbr'
      | 'allDay'
      | 'costs'
      | 'currencySymbol'
      | 'currencyPosition'
      | 'currencyCode'
      | 'website'
      | 'showMap'
      | 'showMapLink'
      | 'hideFromListings'
      | 'sticky'
      | 'featured'
      | 'ticketed'
      | 'venueIds'
      | 'organizerIds'
      | 'categoryIds'
      | 'tagIds'
      | 'parentId'
    >,
    parentId: number,
  ): StagedEvent {
    const tz = this.zone(str(r, 'timezone').trim());
    const allDay = flag(r, 'all_day', false);
    const start = this.date(r, 'start_date', tz) ?? bad('start_date is required');
    const end = this.date(r, 'end_date', tz) ?? bad('end_date is required');
    const cost = r.cost === undefined || r.cost === null ? NO_COST : this.cost(r.cost);
    const website = r.website === undefined || r.website === null ? null : str(r, 'website');
    if (website && !validUrl(website)) bad('website must be a URL');
    const parent = asId(r.post_parent ?? r.parent ?? parentId) ?? bad('post_parent must be an event id');
    const abbr = computeDatesMs(tz, start, end, allDay, this.dates);
    return {
      id: base.id,
      authorId: base.authorId,
      status: base.status,
      title: base.title,
      description: base.description,
      excerpt: base.excerpt,
      slug: base.slug,
      imageId: base.imageId,
      lineage: base.lineage,
      timezone: tz,
      timezoneAbbr: abbr,
      allDay,
      costs: cost === NO_COST ? [] : cost.costs,
      currencySymbol: r.currency_symbol === undefined ? cost.currencySymbol : str(r, 'currency_symbol'),
      currencyPosition: r.currency_position === undefined ? cost.currencyPosition : str(r, 'currency_position'),
      currencyCode: str(r, 'currency_code'),
      website,
      showMap: flag(r, 'show_map', true),
      showMapLink: flag(r, 'show_map_link', true),
      hideFromListings: flag(r, 'hide_from_listings', false),
      sticky: flag(r, 'sticky', false),
      featured: flag(r, 'featured', false),
      ticketed: flag(r, 'ticketed', false),
      venueIds: this.linkIds(r, 'venue'),
      organizerIds: this.linkIds(r, 'organizer'),
      categoryIds: this.linkIds(r, 'categories'),
      tagIds: this.linkIds(r, 'tags'),
      parentId: parent,
      ...this.recurrenceFields(r, tz, allDay, parent),
    };
  }

  /** A series' recurrence, or an occurrence's original start (its parent is its series). */
  private recurrenceFields(
    r: Rec,
    tz: string,
    allDay: boolean,
    parent: number,
  ): Pick<StagedEvent, 'recurrence' | 'recurrenceId' | 'exception'> {
    const out: Pick<StagedEvent, 'recurrence' | 'recurrenceId' | 'exception'> = {};
    if (r.recurrence_id !== undefined) {
      const rid = r.recurrence_id;
      if (
        typeof rid !== 'string' ||
        !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(rid) ||
        naiveToString(naiveFromString(rid)) !== rid
      ) {
        bad("recurrence_id must be a local date and time 'Y-m-d H:i:s'");
      }
      if (parent === 0) bad('an occurrence (recurrence_id) needs its series as post_parent');
      out.recurrenceId = rid;
      if (flag(r, 'is_exception', false)) out.exception = true;
      return out;
    }
    const v = r.recurrence;
    if (v === undefined || v === null || v === false || v === '') return out;
    const series = { start: naiveToString(this.dates[0]), timezone: tz || this.core.site.config.timezone, allDay };
    try {
      const set = parseRecurrence(v, series, 'recurrence');
      if (set) out.recurrence = storedOf(set, series);
    } catch (err) {
      if (err instanceof CalendarError) bad(err.message);
      throw err;
    }
    return out;
  }

  /** parseCost, memoised by text: a calendar has few distinct cost texts (the result is shared, never changed) */
  private cost(v: unknown): ReturnType<typeof parseCost> {
    if (typeof v !== 'string') return parseCost(v);
    let c = this.costs.get(v);
    if (c === undefined) {
      c = parseCost(v);
      // the shared list the table keeps for these costs: rows with this text then add it as is
      c = { ...c, costs: this.table.costLists.intern(c.costs) as string[] };
      if (this.costs.size < 10_000) this.costs.set(v, c);
    }
    return c;
  }

  private readonly costs = new Map<string, ReturnType<typeof parseCost>>();

  /** the checks of what the staged events link to, once every record is in */
  readonly links = new EventLinks(this.table, {
    event: (id) => this.isKind(id, 'event'),
    venue: (id) => this.isKind(id, 'venue'),
    organizer: (id) => this.isKind(id, 'organizer'),
    category: (id) => this.isTerm(id, 'tribe_events_cat'),
    tag: (id) => this.isTerm(id, 'post_tag'),
  });
}
