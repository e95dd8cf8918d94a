// The engine's query vocabulary. api/events/list.ts turns REST parameters into an EventQuery;
// the engine never sees a date string, a slug or a user.

/**
 * Times inside the engine are "naive ms": Date.UTC() of a wall-clock 'Y-m-d H:i:s' reading,
 * i.e. the wall-clock fields read as if they were UTC. Event lists compare against each event's
 * own local wall-clock start/end (docs/behaviour.md), so boundaries arrive in the same unit.
 */
export type NaiveMs = number;

export interface SearchSpec {
  /** folded terms (NFD, combining marks stripped, lower case) that must all occur as substrings
   *  of the folded title, excerpt or description */
  include: string[];
  /** folded terms none of which may occur in any of them */
  exclude: string[];
}

export type GeoFilter =
  | { kind: 'has-coords'; value: boolean }
  | { kind: 'radius'; lat: number; lng: number; radiusKm: number };

export interface EventQuery {
  /** bounds on the local start: start >= startGte, start > startGt, start < startLt, start <= startLte */
  startGte?: NaiveMs;
  startGt?: NaiveMs;
  startLt?: NaiveMs;
  startLte?: NaiveMs;
  /** bounds on the local end, same meaning */
  endGte?: NaiveMs;
  endGt?: NaiveMs;
  endLt?: NaiveMs;
  endLte?: NaiveMs;
  /** allowed statuses: bit i set = POST_STATUSES[i] allowed */
  statusMask: number;
  /** OR over the ids; a category matches its descendants too */
  categoryIds?: number[];
  tagIds?: number[];
  /** OR over the venue ids */
  venueIds?: number[];
  /** OR over the organizer ids */
  organizerIds?: number[];
  featured?: boolean;
  ticketed?: boolean;
  /** restrict to these event ids; changes the order to (publication date, id) */
  includeIds?: number[];
  /** only children of this event id */
  parentId?: number;
  geo?: GeoFilter;
  search?: SearchSpec;
  /** rows to skip in result order, and how many to keep after that */
  offset: number;
  limit: number;
}

export interface QueryResult {
  /** event rows of the requested page, in result order */
  rows: number[];
  /** number of matching events over all pages */
  total: number;
}
