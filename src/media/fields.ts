// A media item's fields on create and update (title, caption, description, alt text, the post it
// is attached to), checked as WordPress's attachments controller checks them, and the permission
// answers the media library gives.

import type { EngineApi } from '../engine/engine-api.ts';
import type { MediaRecord } from '../engine/records.ts';
import { canEditPost, canUnfilteredHtml } from '../api/wordpress/auth.ts';
import { type CalendarError, type ErrorCode, fail, invalidParams } from '../api/wordpress/errors.ts';
import { kses } from '../api/wordpress/kses.ts';
import { asId, asString, has, Problems } from '../api/wordpress/params.ts';
import { sanitizeTextField } from '../api/wordpress/text.ts';
import type { Actor, Params } from '../api/wordpress/types.ts';

/** 401 for a visitor, 403 for a user without the capability. */
export const denied = (actor: Actor, code: ErrorCode, message: string): CalendarError =>
  fail(code, [], {}, { status: actor === null ? 401 : 403, message });

/** The event, venue or organizer `id` as far as a permission check needs it, or undefined. */
export function postOf(engine: EngineApi, id: number): { authorId: number; status: string } | undefined {
  const e = engine;
  const kind = e.postKind(id);
  if (kind === 'event') {
    const row = e.eventRow(id);
    return row < 0 ? undefined : { authorId: e.eventTable.authorIds[row], status: e.eventStatus(row) };
  }
  if (kind === 'venue') return e.venue(id);
  if (kind === 'organizer') return e.organizer(id);
  return undefined;
}

/** `post`: 0, or an event, venue or organizer the actor may edit. */
function parentOf(
  engine: EngineApi,
  actor: Actor,
  v: unknown,
  problems: Problems,
  upload: boolean,
): number | undefined {
  const id = v === null || v === '' ? 0 : (asId(v) ?? (v === 0 || v === '0' ? 0 : undefined));
  if (id === undefined) return void problems.add('post');
  if (id === 0) return 0;
  const post = postOf(engine, id);
  if (!post) return void problems.add('post', 'Invalid parent type.');
  if (!canEditPost(actor, post)) {
    throw denied(
      actor,
      'rest_cannot_edit',
      upload
        ? 'Sorry, you are not allowed to upload media to this post.'
        : 'Sorry, you are not allowed to edit this post.',
    );
  }
  return id;
}

/** title, caption, description, alt_text and post of a create or update. */
export function mediaFields(engine: EngineApi, actor: Actor, params: Params, upload: boolean): Partial<MediaRecord> {
  const problems = new Problems();
  const out: Partial<MediaRecord> = {};
  const html = (name: string): string | undefined => {
    let v = params[name];
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && 'raw' in v) v = (v as { raw: unknown }).raw;
    const s = asString(v);
    if (s === undefined) return void problems.add(name);
    return (canUnfilteredHtml(actor) ? s : kses(s)).trim();
  };
  if (has(params, 'title')) out.title = html('title');
  if (has(params, 'caption')) out.caption = html('caption');
  if (has(params, 'description')) out.description = html('description');
  if (has(params, 'alt_text')) {
    const s = asString(params.alt_text);
    if (s === undefined) problems.add('alt_text');
    else out.alt = sanitizeTextField(s);
  }
  if (has(params, 'post')) out.parent = parentOf(engine, actor, params.post, problems, upload);
  if (problems.any) throw invalidParams(problems.reasons);
  return out;
}
