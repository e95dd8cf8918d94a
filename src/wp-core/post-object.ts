// A /wp/v2 post as WP_REST_Posts_Controller::prepare_item_for_response writes it, for the
// features the plugin registers each type with (events: title, editor, excerpt, author,
// thumbnail, custom-fields; venues and organizers: title and editor only).

import { naiveFromString, naiveToString } from '../engine/naive-time.ts';
import type { EventRecord, OrganizerRecord, VenueRecord } from '../engine/records.ts';
import type { Core } from '../api/context.ts';
import { postUrl } from '../api/representation/represent.ts';
import { epochToZoned, zonedToEpoch } from '../api/wordpress/dates.ts';
import { displayContent, displayExcerpt, displayTitle } from '../api/wordpress/display.ts';
import { NO_DATE } from '../api/post-fields.ts';
import { stripAllTags } from '../api/wordpress/text.ts';
import { CURIES, link, rfc3339, wpRoot, type Context, type Item } from './common.ts';
import { eventMeta } from './meta.ts';

export type PostKindName = 'event' | 'venue' | 'organizer';
export type AnyPost = EventRecord | VenueRecord | OrganizerRecord;

export const TYPE: Record<PostKindName, string> = {
  event: 'tribe_events',
  venue: 'tribe_venue',
  organizer: 'tribe_organizer',
};

/** WP_REST_Posts_Controller::prepare_item_for_response for this service's post types. */
export function postObject(core: Core, kind: PostKindName, rec: AnyPost, context: Context): Item {
  const root = wpRoot(core);
  const type = TYPE[kind];
  const edit = context === 'edit';
  const plain = `${core.site.config.siteUrl}/?post_type=${type}&p=${rec.id}`;
  const obj: Item = { id: rec.id, date: rfc3339(rec.date), date_gmt: rfc3339(gmt(core, rec.dateUtc, rec.date)) };
  obj.guid = edit ? { rendered: plain.replace('&', '&#038;'), raw: plain } : { rendered: plain.replace('&', '&#038;') };
  obj.modified = rfc3339(rec.modified);
  obj.modified_gmt = rfc3339(gmt(core, rec.modifiedUtc, rec.modified));
  if (edit) obj.password = '';
  obj.slug = rec.slug;
  obj.status = rec.status;
  if (edit) {
    obj.generated_slug = rec.slug;
    obj.permalink_template = `${core.site.config.siteUrl}/${kind}/%pagename%/`;
  }
  obj.type = type;
  obj.link = postUrl(core.site, kind, rec);
  obj.title = edit ? { raw: rec.title, rendered: displayTitle(rec.title) } : { rendered: displayTitle(rec.title) };
  if (context !== 'embed') {
    const content = displayContent(rec.description);
    obj.content = edit
      ? { raw: rec.description, rendered: content, protected: false, block_version: 0 }
      : { rendered: content, protected: false };
  }
  const links: Item = {
    self: link(`${root}${type}/${rec.id}`),
    collection: link(`${root}${type}`),
    about: link(`${root}types/${type}`),
  };
  if (kind === 'event') {
    const e = rec as EventRecord;
    const excerpt = excerptOf(e);
    obj.excerpt = edit
      ? { raw: e.excerpt, rendered: excerpt, protected: false }
      : { rendered: excerpt, protected: false };
    obj.author = e.authorId;
    obj.featured_media = e.imageId;
    links.author = link(`${root}users/${e.authorId}`, { embeddable: true });
  }
  if (context !== 'embed') obj.template = '';
  if (kind === 'event') {
    const e = rec as EventRecord;
    if (context !== 'embed') obj.meta = eventMeta(e);
    obj.tribe_events_cat = byName(core, e.categoryIds);
    obj.tags = byName(core, e.tagIds);
    if (e.imageId) links['wp:featuredmedia'] = link(`${root}media/${e.imageId}`, { embeddable: true });
  }
  links['wp:attachment'] = link(`${root}media?parent=${rec.id}`);
  if (kind === 'event') {
    links['wp:term'] = [
      { taxonomy: 'tribe_events_cat', embeddable: true, href: `${root}tribe_events_cat?post=${rec.id}` },
      { taxonomy: 'post_tag', embeddable: true, href: `${root}tags?post=${rec.id}` },
    ];
  }
  links.curies = CURIES;
  obj._links = links;
  return obj;
}

/** A GMT date, or (a draft's floating date) the local one converted with the site's offset, as core shims it. */
function gmt(core: Core, utc: string, local: string): string {
  if (utc !== NO_DATE) return utc;
  const zone = core.site.config.timezone;
  return naiveToString(epochToZoned(zonedToEpoch(naiveFromString(local), zone), 'UTC'));
}

/** get_the_terms' order: by name. */
function byName(core: Core, ids: readonly number[]): number[] {
  const { engine } = core;
  return [...ids].sort((a, b) => {
    const x = engine.term(a)?.name.toLowerCase() ?? '',
      y = engine.term(b)?.name.toLowerCase() ?? '';
    return x < y ? -1 : x > y ? 1 : a - b;
  });
}

const EXCERPT_WORDS = 55;

/** the_excerpt of an event: its own excerpt, or (none given) wp_trim_excerpt of its content:
 *  the text of the content cut to 55 words, with ' [&hellip;]' when cut. */
function excerptOf(e: EventRecord): string {
  if (e.excerpt.trim() !== '') return displayExcerpt(e.excerpt);
  const text = stripAllTags(displayContent(e.description)).trim();
  if (text === '') return '';
  const words = text.split(/\s+/);
  const cut = words.length > EXCERPT_WORDS;
  return displayExcerpt(words.slice(0, EXCERPT_WORDS).join(' ') + (cut ? ' [&hellip;]' : ''));
}
