// A change record of the feed ({seq, time, type, action, id, author, fields}) and the form the
// feed holds it in: its JSON text made once, with what visibility checks need beside it.

export type ChangeType = 'event' | 'venue' | 'organizer' | 'category' | 'tag' | 'media';
export type ChangeAction = 'created' | 'updated' | 'trashed' | 'deleted';
export const CHANGE_TYPES: readonly ChangeType[] = ['event', 'venue', 'organizer', 'category', 'tag', 'media'];

export interface Change {
  seq: number;
  /** when the write was acknowledged, ISO 8601 UTC ('' for writes journaled before times were kept) */
  time: string;
  type: ChangeType;
  action: ChangeAction;
  id: number;
  /** the acting user's id (0: the site itself, or unknown) */
  author: number;
  /** for creates and updates: the fields that changed, with their new values (REST names) */
  fields?: Record<string, unknown>;
}

/**
 * A retained change: its record kept as its JSON text (what streams, webhooks, pages and the
 * change log send, made once), beside what trimming the window and deciding who may see it need
 * (the record's author and statuses). A reader that wants the record as an object gets a fresh
 * one (changeOf): nothing it can change is shared with the feed or with other readers. The text
 * is also the smaller form (docs/changes.md, memory).
 */
export interface HeldChange {
  seq: number;
  time: string;
  type: ChangeType;
  /** JSON.stringify of the Change */
  text: string;
  owner: number;
  before: string | undefined;
  after: string | undefined;
}

/** A change as the feed holds it. */
export function holdChange(
  change: Change,
  owner: number,
  before: string | undefined,
  after: string | undefined,
): HeldChange {
  return { seq: change.seq, time: change.time, type: change.type, text: JSON.stringify(change), owner, before, after };
}

/** The records of `held` that `keep` keeps (all by default) as the JSON text of an array's items,
 *  comma-separated, from the texts the feed holds (what streams, webhooks and pages send). */
export function joinTexts(held: readonly HeldChange[], keep?: (h: HeldChange) => boolean): string {
  let text = '';
  for (let i = 0; i < held.length; i++) {
    if (keep !== undefined && !keep(held[i])) continue;
    text = text === '' ? held[i].text : `${text},${held[i].text}`;
  }
  return text;
}

/** A retained change's record as a fresh object. */
export function changeOf(h: HeldChange): Change {
  return JSON.parse(h.text) as Change;
}
