// One error class for everything a caller can do wrong, carrying the REST code, the HTTP
// status and WordPress-shaped `data`, and one table of every code the project emits with its
// status and message: the WordPress ones verbatim, then the project's own (options, a closed
// calendar, the change feed, a cluster). Every error is built by `fail()` from this table;
// docs/errors.md lists it (a test compares them).

const TABLE = {
  rest_no_route: [404, 'No route was found matching the URL and request method.'],
  rest_missing_callback_param: [400, 'Missing parameter(s): %s'],
  rest_invalid_param: [400, 'Invalid parameter(s): %s'],
  rest_forbidden: [403, 'Sorry, you are not allowed to do that.'],
  rest_not_logged_in: [401, 'You are not currently logged in.'],
  incorrect_password: [401, 'The provided password is an invalid application password.'],
  invalid_username: [401, 'Unknown username. Check again or try your email address.'],
  invalid_credentials: [401, 'Unknown username or incorrect application password.'],
  too_many_login_attempts: [429, 'Too many failed login attempts. Try again in %s seconds.'],
  rest_invalid_json: [400, 'Invalid JSON body passed.'],
  rest_payload_too_large: [413, 'The request body is too large.'],
  rest_input_too_deep: [400, 'Parameter %s nests more than %s levels of brackets.'],
  rest_unsupported_media_type: [415, 'Unsupported content type: %s'],
  'event-archive-page-not-found': [404, 'The requested event archive page does not exist'],
  'venue-archive-page-not-found': [404, 'The requested venue archive page does not exist'],
  'organizer-archive-page-not-found': [404, 'The requested organizer archive page does not exist'],
  'archive-bad-search-string': [400, 'The search string must be a string'],
  'rest-event-not-found': [404, 'Event with ID %s does not exist.'],
  'rest-invalid-event-id': [400, 'The specified ID is not a valid event.'],
  'event-no-longer-available': [403, 'The event is no longer available.'],
  'event-not-accessible': [403, 'The requested event is not accessible.'],
  'event-password-protected': [403, 'The requested event is password protected.'],
  'venue-not-accessible': [403, 'The requested venue is not accessible.'],
  'organizer-not-accessible': [403, 'The requested organizer is not accessible.'],
  'event-is-in-trash': [410, 'The event with ID %s is already in the trash.'],
  'venue-is-in-trash': [410, 'The venue with ID %s is already in the trash.'],
  'organizer-is-in-trash': [410, 'The organizer with ID %s is already in the trash.'],
  'could-not-delete-event': [500, 'The event could not be deleted.'],
  'could-not-delete-venue': [500, 'The venue could not be deleted.'],
  'could-not-delete-organizer': [500, 'The organizer could not be deleted.'],
  'could-not-update-event': [403, 'The event could not be updated.'],
  'could-not-update-venue': [400, 'The venue could not be updated.'],
  'could-not-update-organizer': [400, 'The organizer could not be updated.'],
  'could-not-create-venue': [400, 'The venue could not be created from the provided data.'],
  'could-not-create-organizer': [400, 'The organizer could not be created from the provided data.'],
  'invalid-linked-post-id': [400, 'The provided linked post ID is not valid.'],
  term_exists: [400, 'A term with the name provided already exists with this parent.'],
  duplicate_term_slug: [400, 'The slug "%s" is already in use by another term.'],
  rest_forbidden_context: [403, 'Sorry, you are not allowed to edit %s.'],
  rest_forbidden_status: [403, 'Status is forbidden.'],
  rest_cannot_create: [403, 'Sorry, you are not allowed to create terms in this taxonomy.'],
  rest_cannot_update: [403, 'Sorry, you are not allowed to edit this term.'],
  rest_cannot_delete: [403, 'Sorry, you are not allowed to delete this term.'],
  rest_term_invalid: [404, 'Term does not exist.'],
  rest_taxonomy_not_hierarchical: [400, 'Cannot set parent term, taxonomy is not hierarchical.'],
  rest_trash_not_supported: [501, "Terms do not support trashing. Set 'force=true' to delete."],
  rest_post_invalid_id: [404, 'Invalid post ID.'],
  rest_post_invalid_page_number: [400, 'The page number requested is larger than the number of pages available.'],
  rest_user_invalid_id: [404, 'Invalid user ID.'],
  rest_user_cannot_view: [403, 'Sorry, you are not allowed to list users.'],
  rest_forbidden_who: [403, 'Sorry, you are not allowed to query users by this parameter.'],
  rest_cannot_edit: [403, 'Sorry, you are not allowed to edit this post.'],
  rest_upload_no_data: [400, 'No data supplied.'],
  rest_upload_no_content_type: [400, 'No Content-Type supplied.'],
  rest_upload_no_content_disposition: [400, 'No Content-Disposition supplied.'],
  rest_upload_invalid_disposition: [
    400,
    'Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `attachment; filename="image.png"` or similar.',
  ],
  rest_upload_hash_mismatch: [412, 'Content hash did not match expected.'],
  rest_upload_unknown_error: [400, '%s'],
  rest_upload_sideload_error: [400, 'The file is not a valid image: %s'],
  rest_upload_file_too_big: [413, 'This file is too big. Files must be less than %s KB in size.'],
  internal_error: [500, 'The server encountered an internal error.'],
  rest_callback_invalid: [400, 'Invalid JSONP callback function.'],
  rest_bad_request: [400, 'Malformed HTTP request.'],
  // the project's own
  storage_full: [
    507,
    'The calendar cannot store this write: no space left on its disk (writing %s). Reads still work.',
  ],
  storage_quota_exceeded: [
    507,
    'The calendar cannot store this write: its disk quota is exceeded (writing %s). Reads still work.',
  ],
  storage_io_error: [503, 'The calendar cannot store this write: its disk failed (%s: %s). Reads still work.'],
  storage_read_only: [503, 'The calendar cannot store this write: its disk is read-only (%s: %s). Reads still work.'],
  calendar_read_only: [503, 'The calendar is served read-only: writes are refused.'],
  invalid_option: [400, '%s'],
  media_file_missing: [503, "The media file '%s' is missing from the uploads folder: the export cannot carry it."],
  media_export_async: [
    400,
    "A cluster's media are in its object store: export with cal.exportTo(), which reads them from there.",
  ],
  rest_upload_image_library_missing: [
    501,
    'Images cannot be processed: the image library (sharp) could not be loaded from %s: %s',
  ],
  calendar_closed: [503, 'The calendar is closed.'],
  rest_changes_expired: [
    410,
    'The changes after seq %s are no longer retained (the oldest retained follows seq %s): resynchronise from the lists, then follow from the current head.',
  ],
  rest_cluster_behind: [
    503,
    'This node has not reached write %s within %s s (it is at %s). Retry, or read from another node.',
  ],
  rest_cluster_not_writer: [503, 'This node is not the writer of the cluster. Retry.'],
  rest_cluster_no_writer: [
    503,
    'No node of the cluster is the writer right now (an election is under way, or NATS lost its quorum). Retry.',
  ],
  rest_cluster_write_failed: [503, 'The write was not stored: this node is no longer the writer. Retry.'],
  rest_cluster_write_unknown: [
    503,
    'The writer did not answer (it stopped, or another node took over): the write may or may not have been made. Check before retrying.',
  ],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof TABLE;

/** Every code with its status and message template (docs/errors.md is made from it). */
export const ERROR_CODES: ReadonlyArray<{ code: ErrorCode; status: number; message: string }> = Object.entries(
  TABLE,
).map(([code, [status, message]]) => ({ code: code as ErrorCode, status, message }));

export class CalendarError extends Error {
  readonly code: string;
  readonly status: number;
  readonly data: { status: number; [key: string]: unknown };

  constructor(code: string, status: number, message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = 'CalendarError';
    this.code = code;
    this.status = status;
    this.data = { status, ...data };
  }

  /** The WordPress REST error body: {code, message, data: {status, ...}}. */
  toJSON(): { code: string; message: string; data: { status: number; [key: string]: unknown } } {
    return { code: this.code, message: this.message, data: this.data };
  }
}

/**
 * Build the error for `code`, substituting each `%s` of its message template in turn. `instead`
 * is for the few places that say more than the table's words (an import's record and field, the
 * acting user) or answer with another status (401 rather than 403 for an anonymous caller, as
 * WordPress does; 409 for an import sent to a cluster node that is not the writer).
 */
export function fail(
  code: ErrorCode,
  args: Array<string | number> = [],
  data: Record<string, unknown> = {},
  instead: { status?: number; message?: string } = {},
): CalendarError {
  const [status, template] = TABLE[code];
  let i = 0;
  const message = instead.message ?? template.replace(/%s/g, () => String(args[i++] ?? ''));
  return new CalendarError(code, instead.status ?? status, message, data);
}

/**
 * 400 rest_invalid_param naming every invalid parameter, as WordPress core does:
 * message "Invalid parameter(s): a, b", data.params {name: reason}, data.details {}.
 */
export function invalidParams(reasons: Record<string, string>, details: Record<string, unknown> = {}): CalendarError {
  const names = Object.keys(reasons);
  return fail('rest_invalid_param', [names.join(', ')], { params: reasons, details });
}

/** 400 rest_missing_callback_param listing the missing names (data.params is an array). */
export function missingParams(names: string[]): CalendarError {
  return fail('rest_missing_callback_param', [names.join(', ')], { params: names });
}

/**
 * A permission failure of a WordPress core route: its code and message, with the status
 * rest_authorization_required_code() gives (401 logged out, 403 logged in).
 */
export function denied(code: ErrorCode, loggedIn: boolean, args: Array<string | number> = []): CalendarError {
  const e = fail(code, args);
  return loggedIn ? e : new CalendarError(e.code, 401, e.message);
}

export function isCalendarError(e: unknown): e is CalendarError {
  return e instanceof CalendarError;
}
