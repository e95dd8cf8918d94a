// The canonical stored records: what write ops carry, what snapshots hold, what the engine
// keeps (as columns for events, as plain records for the small tables). Everything here is
// already validated and fully resolved by api/: dates are final 'Y-m-d H:i:s' strings in their
// zone, slugs are unique, linked ids exist. The engine never parses user input.

/** WordPress post statuses an event/venue/organizer can hold. */
export const POST_STATUSES = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash',
  'auto-draft',
  'inherit',
] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** Numeric status code used in columns: index into POST_STATUSES. */
export function statusCode(status: string): number {
  const i = (POST_STATUSES as readonly string[]).indexOf(status);
  if (i < 0) throw new Error(`unknown status: expected one of ${POST_STATUSES.join(', ')}, got ${status}`);
  return i;
}

/** Fields shared by the three post types (events, venues, organizers) and attachments. */
export interface PostRecord {
  id: number;
  authorId: number;
  status: PostStatus;
  /** publication date, site-local wall time 'Y-m-d H:i:s' */
  date: string;
  dateUtc: string;
  modified: string;
  modifiedUtc: string;
  /** stored (already sanitised) raw title; display filters are applied when represented */
  title: string;
  description: string;
  excerpt: string;
  /** '' for drafts/pending created without a slug (WordPress behaviour) */
  slug: string;
  /** attachment post id of the featured image, 0 = none */
  imageId: number;
  /** extra global_id_lineage entries after the record's own global id (imports keep them) */
  lineage?: string[];
}

export interface EventRecord extends PostRecord {
  /** event time zone as stored: IANA id or 'UTC+2' style; '' when none stored */
  timezone: string;
  timezoneAbbr: string;
  allDay: boolean;
  /** local wall-clock start/end in the event's zone, 'Y-m-d H:i:s' */
  startLocal: string;
  endLocal: string;
  /** UTC copies, 'Y-m-d H:i:s' */
  startUtc: string;
  endUtc: string;
  /** stored cost strings, in the order given ([] = no cost) */
  costs: string[];
  currencySymbol: string;
  /** 'prefix' | 'postfix' | '' */
  currencyPosition: string;
  currencyCode: string;
  /** null = no website meta stored (represented as the permalink); '' = stored empty */
  website: string | null;
  showMap: boolean;
  showMapLink: boolean;
  hideFromListings: boolean;
  sticky: boolean;
  featured: boolean;
  ticketed: boolean;
  venueIds: number[];
  organizerIds: number[];
  categoryIds: number[];
  tagIds: number[];
  /** parent event post id (recurrence children), 0 = none */
  parentId: number;
  /** a series: its recurrence as the recurrence library represents it (absent: not a series) */
  recurrence?: StoredRecurrence;
  /** an occurrence of the series `parentId`: its original local start 'Y-m-d H:i:s' (RECURRENCE-ID) */
  recurrenceId?: string;
  /** an occurrence edited on its own (an exception): series-wide edits leave its fields alone */
  exception?: boolean;
}

/** A series' rules, extra dates and excluded dates, each an RFC 5545 content line. */
export interface StoredRecurrence {
  rules: string[];
  rdates: string[];
  exdates: string[];
}

/** What a row keeps of recurrence (EventTable.recur), when it is a series or an occurrence. */
export interface RecurInfo {
  recurrence?: StoredRecurrence;
  recurrenceId?: string;
  exception?: boolean;
}

export interface VenueRecord extends PostRecord {
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  stateprovince: string;
  website: string;
  showMap: boolean;
  showMapLink: boolean;
  /** both null, or both numbers in range */
  geoLat: number | null;
  geoLng: number | null;
}

export interface OrganizerRecord extends PostRecord {
  phone: string;
  email: string;
  website: string;
}

export type Taxonomy = 'tribe_events_cat' | 'post_tag';

export interface TermRecord {
  id: number;
  taxonomy: Taxonomy;
  name: string;
  slug: string;
  description: string;
  /** parent term id (categories only), 0 = top level */
  parent: number;
}

/** A featured image. Shares the post id space with events, venues and organizers. An image known
 *  by its URL only has no `media`; an upload to the media library (src/media/) has. */
export interface AttachmentRecord {
  id: number;
  authorId: number;
  /** the image's absolute URL; for an upload, its path below the site ('/wp-content/uploads/2026/05/a.jpg') */
  url: string;
  /** file extension of the image, lower case, e.g. 'jpg' */
  extension: string;
  date: string;
  dateUtc: string;
  /** an uploaded file and its library fields */
  media?: MediaRecord;
}

/** One generated size of an uploaded image: a file beside the original. */
export interface MediaSize {
  /** file name, in the original's folder ('photo-150x150.jpg') */
  file: string;
  width: number;
  height: number;
  filesize: number;
}

/** What the media library keeps of an upload (WordPress's post fields and attachment metadata). */
export interface MediaRecord {
  /** path below the uploads folder: 'YYYY/MM/name.ext' */
  file: string;
  mime: string;
  width: number;
  height: number;
  filesize: number;
  /** generated sizes by name (thumbnail, medium, medium_large, large), only those smaller than the original */
  sizes: Record<string, MediaSize>;
  slug: string;
  title: string;
  caption: string;
  alt: string;
  description: string;
  /** the post the file is attached to (an event, venue or organizer id), 0 = none */
  parent: number;
  modified: string;
  modifiedUtc: string;
}

export type PostKind = 'event' | 'venue' | 'organizer' | 'attachment';

/**
 * One change to the calendar. `applyOp` (engine/apply.ts) is the only function that applies
 * these; live writes and journal replay both go through it.
 *
 * - put: insert or replace the whole record (ids are kept; counters move past them).
 * - delete of an event: move to trash (status 'trash', slug + '__trashed', modified stamps).
 * - delete of a venue/organizer: move to trash as above and unlink it from every event.
 * - delete of a term: remove permanently and unlink it from every event.
 * - delete of an attachment: remove permanently; every event, venue and organizer that shows it
 *   as its image loses it (WordPress deletes the `_thumbnail_id` meta that names it).
 */
export type Op =
  | { t: 'event'; a: 'put'; rec: EventRecord }
  | { t: 'venue'; a: 'put'; rec: VenueRecord }
  | { t: 'organizer'; a: 'put'; rec: OrganizerRecord }
  | { t: 'term'; a: 'put'; rec: TermRecord }
  | { t: 'attachment'; a: 'put'; rec: AttachmentRecord }
  | { t: 'event' | 'venue' | 'organizer'; a: 'delete'; id: number; modified: string; modifiedUtc: string }
  | { t: 'term'; a: 'delete'; id: number }
  | { t: 'attachment'; a: 'delete'; id: number };

/** One acknowledged write = one journal line. All its ops apply together or not at all. */
export interface Write {
  seq: number;
  ops: Op[];
  /** when the write was acknowledged (ISO 8601 UTC), and who made it; absent in older journals */
  time?: string;
  author?: number;
}
