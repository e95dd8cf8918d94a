// The media library in the change feed (docs/changes.md): an upload is `media` `created`, a change
// of its fields `updated` (with the fields that changed), a delete `deleted`; the events, venues
// and organizers that showed a deleted upload are `updated` with `image: 0`, as the delete leaves
// them. An image known by URL only (no upload) makes no change record. Who may see a media change:
// everyone for an unattached upload, as for the item; for one attached to a post, whoever may
// read that post.

import type { EngineApi } from '../engine/engine-api.ts';
import type { AttachmentRecord, Op } from '../engine/records.ts';
import { uploadFields } from './export.ts';

type AttachmentOp = Extract<Op, { t: 'attachment' }>;

/** A change record (the feed's Change) with what deciding who may see it needs; the feed holds it. */
export interface MediaChange {
  change: {
    seq: number;
    time: string;
    type: 'media' | 'event' | 'venue' | 'organizer';
    action: 'created' | 'updated' | 'deleted';
    id: number;
    author: number;
    fields?: Record<string, unknown>;
  };
  owner: number;
  before: string | undefined;
  after: string | undefined;
}

const hold = (
  change: MediaChange['change'],
  owner: number,
  before: string | undefined,
  after: string | undefined,
): MediaChange => ({ change, owner, before, after });

/** An upload's fields in the change feed (REST names; `file` below the uploads folder). */
function changeFields(att: AttachmentRecord): Record<string, unknown> {
  return { ...uploadFields(att), filesize: att.media!.filesize, sizes: att.media!.sizes };
}

/** The owner and status an upload's change is read by: its post's, or (unattached) public. */
function visibility(engine: EngineApi, att: AttachmentRecord): { owner: number; status: string } {
  const parent = att.media!.parent;
  const kind = parent === 0 ? undefined : engine.postKind(parent);
  if (kind === 'event') {
    const row = engine.eventRow(parent);
    if (row >= 0) return { owner: engine.eventTable.authorIds[row], status: engine.eventStatus(row) };
  }
  const post = kind === 'venue' ? engine.venue(parent) : kind === 'organizer' ? engine.organizer(parent) : undefined;
  return post ? { owner: post.authorId, status: post.status } : { owner: att.authorId, status: 'publish' };
}

/**
 * The changes one attachment op makes, read against the engine before the write is applied;
 * `staged` holds the attachments earlier ops of the same write put (undefined: deleted).
 */
export function mediaChanges(
  engine: EngineApi,
  op: AttachmentOp,
  staged: Map<number, AttachmentRecord | undefined>,
  seq: number,
  time: string,
  author: number,
): MediaChange[] {
  const id = op.a === 'put' ? op.rec.id : op.id;
  const prev = staged.has(id) ? staged.get(id) : engine.attachment(id);
  staged.set(id, op.a === 'put' ? op.rec : undefined);
  const was = prev?.media ? prev : undefined;
  if (op.a === 'put') {
    if (!op.rec.media) return [];
    const after = changeFields(op.rec);
    let fields = after;
    if (was) {
      const before = changeFields(was);
      fields = {};
      for (const k in after) if (JSON.stringify(after[k]) !== JSON.stringify(before[k])) fields[k] = after[k];
    }
    const action = was ? 'updated' : 'created';
    const seen = visibility(engine, op.rec);
    const before = was ? visibility(engine, was).status : undefined;
    return [hold({ seq, time, type: 'media', action, id, author, fields }, seen.owner, before, seen.status)];
  }
  if (!was) return [];
  const seen = visibility(engine, was);
  const out = [hold({ seq, time, type: 'media', action: 'deleted', id, author }, seen.owner, seen.status, undefined)];
  // the posts that showed it show no image from now on (engine: deleteAttachment)
  const unset = (type: 'event' | 'venue' | 'organizer', postId: number, owner: number, status: string) => {
    out.push(
      hold({ seq, time, type, action: 'updated', id: postId, author, fields: { image: 0 } }, owner, status, status),
    );
  };
  const t = engine.eventTable;
  for (let row = 0; row < engine.eventRowCount; row++) {
    if (t.imageIds[row] === id) unset('event', t.ids[row], t.authorIds[row], engine.eventStatus(row));
  }
  for (const v of engine.venues()) if (v.imageId === id) unset('venue', v.id, v.authorId, v.status);
  for (const o of engine.organizers()) if (o.imageId === id) unset('organizer', o.id, o.authorId, o.status);
  return out;
}
