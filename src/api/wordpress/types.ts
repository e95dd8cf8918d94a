// Types shared by the embedding API, the HTTP shell and the command line.

export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

export interface User {
  id: number;
  login: string;
  role: Role;
}

/** The acting user of a call. null = anonymous caller. */
export type Actor = User | null;

/**
 * The `as` argument of the embedding API (docs/embedding.md): a user's login,
 * `{ role }` (optionally with the `id` the caller acts as), or null for anonymous.
 * Left out (undefined) = administrator rights.
 */
export type AsArg = string | { role: Role; id?: number; login?: string } | null | undefined;

export type Resource = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';
export type Action = 'list' | 'get' | 'create' | 'update' | 'delete';

/** The WordPress core routes (`wp/v2`) over the same records (src/wp-core/): the two taxonomies,
 *  the three post types, and the users (`wp-me`: the acting user, /wp/v2/users/me). */
export type WpResource =
  | 'wp-tags'
  | 'wp-categories'
  | 'wp-events'
  | 'wp-venues'
  | 'wp-organizers'
  | 'wp-users'
  | 'wp-me';

/** Query and body parameters merged, as WordPress merges them (body wins over query). */
export type Params = Record<string, unknown>;

/** One REST operation, transport-free. The HTTP shell builds these from routes. */
export interface RestCall {
  resource: Resource | WpResource;
  action: Action;
  /** the path target for get/update/delete: an id (`/events/12`) or a slug (`/events/by-slug/x`) */
  target?: { id: number } | { slug: string };
  params: Params;
  actor: Actor;
  /** the body is about to be written to a socket and dropped (the HTTP shell): a list body then
   *  comes as its pieces (RestResult.parts), and `body` is joined only if it is read
   *  (envelope.ts, archiveResult) */
  forSocket?: boolean;
}

/** A finished REST answer: status, extra headers (X-TEC-Total ...), and the JSON body text. */
export interface RestResult {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** with RestCall.forSocket, a list's body as its pieces, in order: their concatenation is
   *  `body`, and every piece is ASCII. The HTTP shell copies them into a buffer it reuses. */
  parts?: readonly string[];
  /** with RestCall.forSocket, a list page kept whole (page-cache.ts): its body as ASCII bytes,
   *  written to the socket as they are */
  bytes?: Uint8Array;
  /** a list page kept whole: true while it is still the answer to the same call made now, that
   *  is while nothing was written since (the HTTP shell repeats such answers: repeat-answers.ts) */
  current?(): boolean;
}

/** A page of a list through the embedding API. Items are exactly the REST representations. */
export interface Page<T = Record<string, unknown>> {
  items: T[];
  total: number;
  totalPages: number;
}

/** Read access to the users of a store, as the calendar needs it (src/users/registry.ts implements it). */
export interface UserDirectory {
  byLogin(login: string): User | undefined;
  byId(id: number): User | undefined;
  /** every user, by id (the wp/v2 users list) */
  list?(): User[];
}

/** Site-wide settings every representation and default depends on. */
export interface SiteConfig {
  /** IANA zone or 'UTC+2' style offset */
  timezone: string;
  perPage: number;
  /** base of every link, no trailing slash, e.g. 'http://127.0.0.1:8080' */
  siteUrl: string;
  /** e.g. '/wp-json' */
  restPrefix: string;
  now: () => Date;
}
