// The import shape (docs/import-export.md) as producers write it, and what an import
// reports. Types only: src/import/index.ts validates and loads it.

export interface ImportCategory {
  id: number;
  name: string;
  slug: string;
  description: string;
  parent: number;
}
export interface ImportTag {
  id: number;
  name: string;
  slug: string;
  description: string;
}

interface ImportPost {
  id: number;
  author: number;
  status: string;
  /** publication date, site-local 'Y-m-d H:i:s' (date_utc, modified, modified_utc optional) */
  date: string;
  slug: string;
  description: string;
  excerpt?: string;
}

export interface ImportVenue extends ImportPost {
  venue: string;
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  website: string;
  show_map: boolean;
  show_map_link: boolean;
  /** both or neither; absent or null = no coordinates */
  geo_lat?: number | null;
  geo_lng?: number | null;
}

export interface ImportOrganizer extends ImportPost {
  organizer: string;
  phone: string;
  email: string;
  website: string;
}

export interface ImportEvent extends ImportPost {
  title: string;
  excerpt: string;
  timezone: string;
  all_day: boolean;
  /** local wall clock in the event's zone, 'Y-m-d H:i:s' */
  start_date: string;
  end_date: string;
  cost: string;
  website: string;
  show_map: boolean;
  show_map_link: boolean;
  hide_from_listings: boolean;
  sticky: boolean;
  featured: boolean;
  ticketed: boolean;
  categories: number[];
  tags: number[];
  /** venue post id, 0 = none */
  venue: number;
  organizer: number[];
  post_parent?: number;
  /** a series: RFC 5545 lines or { rules, rdates, exdates } */
  recurrence?: string | { rules: string[]; rdates?: string[]; exdates?: string[] };
  /** an occurrence of the series post_parent: its original local start */
  recurrence_id?: string;
  is_exception?: boolean;
}

/** A whole calendar in the import shape (docs/import-export.md). */
export interface ImportCalendar {
  categories: ImportCategory[];
  tags: ImportTag[];
  venues: ImportVenue[];
  organizers: ImportOrganizer[];
  events: ImportEvent[];
}

/** What import() accepts: the import shape, each record still unvalidated. */
export interface ImportData {
  categories?: unknown[];
  tags?: unknown[];
  /** uploads of the media library with their files (docs/media.md) */
  media?: unknown[];
  venues?: unknown[];
  organizers?: unknown[];
  events?: unknown[];
}

export interface ImportSummary {
  /** existing events updated (a CSV row matching one, as The Events Calendar's importer does); absent when none */
  updated?: number;
  events: number;
  venues: number;
  organizers: number;
  categories: number;
  tags: number;
  /** uploads of the media library; absent when none */
  media?: number;
}

export type ImportProgress = (done: number, total: number) => void;
