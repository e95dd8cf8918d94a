// Fields every post type shares on write: author, date/date_utc, status (scaled by role),
// slug, and the HTML of title/description/excerpt (KSES for users without unfiltered_html).

import { naiveFromString, naiveToString } from '../engine/naive-time.ts';
import { POST_STATUSES, type PostRecord, type PostStatus } from '../engine/records.ts';
import { SITE_OWNER, canPublish, canUnfilteredHtml } from './wordpress/auth.ts';
import type { Tx } from './context.ts';
import { epochToZoned, parseDateInput, zonedToEpoch } from './wordpress/dates.ts';
import { type Problems, asId, asString, has } from './wordpress/params.ts';
import { kses } from './wordpress/kses.ts';
import { sanitizeSlug } from './wordpress/text.ts';
import type { Params } from './wordpress/types.ts';

export interface PostFieldOptions {
  /** name of the title parameter: 'title', 'venue' or 'organizer' */
  titleParam: string;
  /** events: description/excerpt must be non-empty when sent; venues/organizers accept '' */
  nonEmptyText: boolean;
  /** zone in which `date` strings are read (events: the request timezone, else the site zone) */
  dateZone: string;
}

/** The post fields present in `params`, validated; problems are collected, not thrown. */
export function readPostFields(
  tx: Tx,
  params: Params,
  problems: Problems,
  opts: PostFieldOptions,
): Partial<PostRecord> {
  const out: Partial<PostRecord> = {};
  const unfiltered = canUnfilteredHtml(tx.actor);
  const clean = (s: string): string => (unfiltered ? s : kses(s)).trim();

  if (has(params, opts.titleParam)) {
    const s = asString(params[opts.titleParam]);
    if (s === undefined || s.trim() === '') problems.add(opts.titleParam);
    else out.title = clean(s);
  }
  for (const name of ['description', 'excerpt'] as const) {
    if (!has(params, name)) continue;
    const s = asString(params[name]);
    if (s === undefined || (opts.nonEmptyText && s === '')) problems.add(name);
    else out[name] = clean(s);
  }
  if (has(params, 'slug')) {
    const s = asString(params.slug);
    if (s === undefined || s.trim() === '') problems.add('slug');
    else out.slug = sanitizeSlug(s);
  }
  if (has(params, 'author')) {
    const id = asId(params.author);
    if (id === undefined || !userExists(tx, id)) problems.add('author');
    else out.authorId = id;
  }
  if (has(params, 'status')) {
    const s = asString(params.status);
    if (s === undefined || !(POST_STATUSES as readonly string[]).includes(s)) problems.add('status');
    else out.status = scaleStatus(tx, s as PostStatus);
  }
  readPublicationDate(tx, params, problems, opts.dateZone, out);
  return out;
}

function userExists(tx: Tx, id: number): boolean {
  return id === SITE_OWNER.id || tx.core.users?.byId(id) !== undefined;
}

/** Callers without "publish" (contributors) asking publish/future get pending (writes.md). */
export function scaleStatus(tx: Tx, status: PostStatus): PostStatus {
  if (!canPublish(tx.actor) && (status === 'publish' || status === 'future')) return 'pending';
  return status;
}

/** Status of a new post when none is asked for. */
export function defaultStatus(tx: Tx): PostStatus {
  return canPublish(tx.actor) ? 'publish' : 'draft';
}

/** A new post's shared fields: its id, the writer as its author, the default status, now as its
 *  four dates, no texts or slug yet, and its featured image (0: none). */
export function newPostBase(tx: Tx, id: number, imageId = 0) {
  return {
    id,
    authorId: tx.actor?.id ?? 0,
    status: defaultStatus(tx),
    date: tx.stamps.local,
    dateUtc: tx.stamps.utc,
    modified: tx.stamps.local,
    modifiedUtc: tx.stamps.utc,
    title: '',
    description: '',
    excerpt: '',
    slug: '',
    imageId,
  };
}

function readPublicationDate(
  tx: Tx,
  params: Params,
  problems: Problems,
  dateZone: string,
  out: Partial<PostRecord>,
): void {
  const siteZone = tx.core.site.config.timezone;
  const now = tx.core.site.config.now();
  let local: number | null | undefined;
  let utcEpoch: number | null | undefined;
  if (has(params, 'date')) {
    local = parseDateInput(params.date, dateZone, now);
    if (local === null) problems.add('date');
  }
  if (has(params, 'date_utc')) {
    utcEpoch = parseDateInput(params.date_utc, 'UTC', now);
    if (utcEpoch === null) problems.add('date_utc');
  }
  if (typeof local === 'number') {
    out.date = naiveToString(local);
    out.dateUtc = naiveToString(typeof utcEpoch === 'number' ? utcEpoch : zonedToEpoch(local, siteZone));
  } else if (typeof utcEpoch === 'number') {
    out.dateUtc = naiveToString(utcEpoch);
    out.date = naiveToString(epochToZoned(utcEpoch, siteZone));
  }
}

/**
 * wp_insert_post's scheduling rule, one way: a post saved as `future` whose publication date is
 * less than a minute ahead of now is published instead. Call once the record's status and
 * dates are final.
 */
export function publishIfDue(tx: Tx, rec: PostRecord): void {
  if (rec.status !== 'future' || rec.dateUtc === NO_DATE) return;
  if (naiveFromString(rec.dateUtc) - tx.core.site.config.now().getTime() < 60_000) rec.status = 'publish';
}

/** The GMT date WordPress leaves on an unpublished post whose date was never fixed. */
export const NO_DATE = '0000-00-00 00:00:00';

/**
 * WordPress's floating dates: a draft or pending post saved without an explicit `date_utc` has
 * no GMT dates ('0000-00-00 00:00:00' for date_utc and modified_utc) until it is published, when
 * they become real (the publication date's UTC time; modified_utc now). A post that once had a
 * real date_utc keeps it, even back in draft. Call once the record's status is final.
 */
export function floatingDates(tx: Tx, rec: PostRecord, params: Params, before: PostRecord | undefined): void {
  const unpublished = rec.status === 'draft' || rec.status === 'pending';
  if (unpublished) {
    const floating = before === undefined || before.dateUtc === NO_DATE;
    if (floating && !has(params, 'date_utc')) rec.dateUtc = NO_DATE;
    if (rec.dateUtc === NO_DATE) rec.modifiedUtc = NO_DATE;
  } else if (rec.dateUtc === NO_DATE) {
    rec.dateUtc = naiveToString(zonedToEpoch(naiveFromString(rec.date), tx.core.site.config.timezone));
    rec.modifiedUtc = tx.stamps.utc;
  }
}

/** Slug for a post being saved: the given one, or derived from the title; an event keeps none
 *  while it is a draft or pending (venues and organizers get theirs at once, as WordPress gives them). */
export function finalSlug(
  tx: Tx,
  kind: 'event' | 'venue' | 'organizer',
  rec: PostRecord,
  explicit: string | undefined,
): string {
  if (explicit !== undefined) return tx.uniqueSlug(kind, explicit || String(rec.id), rec.id);
  if (rec.slug !== '') return rec.slug;
  if (kind === 'event' && (rec.status === 'draft' || rec.status === 'pending' || rec.status === 'auto-draft'))
    return '';
  return tx.uniqueSlug(kind, sanitizeSlug(rec.title) || String(rec.id), rec.id);
}
