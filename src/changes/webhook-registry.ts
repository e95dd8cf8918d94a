// The webhooks' registry and signatures: what `calendar-engine webhook add|list|remove` and the
// server share. Files in the store directory:
//  - webhooks.json        the registry: id, url, types, secret. The server re-reads it within a second.
//                         Changed under webhooks.json.lock (read, change, replace atomically), so
//                         that commands run at once never lose one another's change.
//  - webhooks-state.json  what the dispatcher knows per webhook: the last seq a receiver
//                         acknowledged with a 2xx, the last status, the failures in a row.
// The changes not yet delivered are those after a webhook's position in the change log
// (changes.jsonl, src/changes/log.ts), which keeps them past its window while a webhook lags.
// A cluster keeps the same records in its KV bucket instead (src/cluster/webhooks.ts).
// A delivery is signed `X-Calendar-Signature: t=UNIX,v1=HEX`, HEX = HMAC-SHA256(secret,
// `${t}.${body}`) (as Stripe signs its webhooks); delivery itself is src/changes/webhooks.ts.

import fs from 'node:fs';
import path from 'node:path';
import { createHmac, randomBytes } from 'node:crypto';
import { editLocked } from '../shared-file/edit.ts';
import { checkUrlLiteral } from '../security/addresses.ts';
import { CHANGE_TYPES, type ChangeType } from './change.ts';

export interface Webhook {
  id: string;
  url: string;
  /** the change types it wants (all when empty) */
  types: ChangeType[];
  secret: string;
  created: string;
  /** may deliver to loopback, private, link-local and this host's own addresses (src/security/addresses.ts) */
  allowPrivate?: true;
}

export interface WebhookState {
  /** every write up to this seq is delivered (or not wanted) */
  delivered: number;
  lastStatus: string;
  lastAttempt: string;
  failures: number;
  /** writes skipped because the feed no longer held them (more than the bound behind) */
  skipped?: number;
}

export class WebhookError extends Error {}

export const REGISTRY = 'webhooks.json';
export const STATE = 'webhooks-state.json';

/** `t=UNIX,v1=HEX`: HMAC-SHA256 of `${t}.${body}` with the webhook's secret. */
export function signature(secret: string, t: number, body: string | Buffer): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex')}`;
}

/** For receivers: true when `header` signs `body` with `secret` (and is at most `toleranceS` old). */
export function verifySignature(
  secret: string,
  header: string,
  body: string,
  nowS = Math.floor(Date.now() / 1000),
  toleranceS = 300,
): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!m) return false;
  const t = Number(m[1]);
  return Math.abs(nowS - t) <= toleranceS && signature(secret, t, body) === header;
}

// ---- the registry (CLI and server) ----------------------------------------------------------

export function readWebhooks(dir: string): Webhook[] {
  try {
    const data = JSON.parse(fs.readFileSync(path.join(dir, REGISTRY), 'utf8')) as { webhooks?: Webhook[] };
    return Array.isArray(data.webhooks) ? data.webhooks : [];
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new WebhookError(`${path.join(dir, REGISTRY)}: ${(err as Error).message}`);
  }
}

/** Read, change and write the registry under its lock. */
function changeWebhooks<T>(dir: string, change: (hooks: Webhook[]) => { hooks: Webhook[]; result: T }): T {
  return editLocked(path.join(dir, REGISTRY), () => {
    const { hooks, result } = change(readWebhooks(dir));
    return { text: JSON.stringify({ webhooks: hooks }, null, 2) + '\n', result };
  }).result;
}

export interface NewWebhookOptions {
  /** may deliver to loopback, private, link-local and this host's own addresses */
  allowPrivate?: boolean;
}

/**
 * A new webhook's record, its URL, types and secret checked. A URL whose host is an IP address
 * that may not be reached (or localhost) is refused here unless allowPrivate; a host name is
 * resolved and checked by checkUrlTarget (src/security/addresses.ts), and again at every delivery.
 */
export function newWebhook(
  url: string,
  types: ChangeType[] = [],
  secret?: string,
  opts: NewWebhookOptions = {},
): Webhook {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookError(`not a URL: '${redactUrl(url)}'`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new WebhookError(`expected an http or https URL, got '${redactUrl(url)}'`);
  }
  for (const t of types)
    if (!CHANGE_TYPES.includes(t))
      throw new WebhookError(`unknown change type '${t}' (expected ${CHANGE_TYPES.join(', ')})`);
  if (secret !== undefined && secret.length < 16) throw new WebhookError('the secret must be at least 16 characters');
  if (!opts.allowPrivate) {
    try {
      checkUrlLiteral(url);
    } catch (err) {
      throw new WebhookError((err as Error).message);
    }
  }
  return {
    id: `wh_${randomBytes(6).toString('hex')}`,
    url,
    types,
    secret: secret ?? randomBytes(24).toString('base64url'),
    created: new Date().toISOString(),
    ...(opts.allowPrivate ? { allowPrivate: true as const } : {}),
  };
}

export function addWebhook(
  dir: string,
  url: string,
  types: ChangeType[] = [],
  secret?: string,
  opts: NewWebhookOptions = {},
): Webhook {
  return saveWebhook(dir, newWebhook(url, types, secret, opts));
}

/** Adds `hook` (from newWebhook) to the store's registry. */
export function saveWebhook(dir: string, hook: Webhook): Webhook {
  return changeWebhooks(dir, (hooks) => ({ hooks: [...hooks, hook], result: hook }));
}

/** The webhook named by its id or URL. */
export function findWebhook(hooks: Webhook[], idOrUrl: string): Webhook {
  const hook = hooks.find((h) => h.id === idOrUrl || h.url === idOrUrl);
  if (!hook) throw new WebhookError(`no webhook '${redactUrl(idOrUrl)}'`);
  return hook;
}

export function removeWebhook(dir: string, idOrUrl: string): Webhook {
  return changeWebhooks(dir, (hooks) => {
    const hook = findWebhook(hooks, idOrUrl);
    return { hooks: hooks.filter((h) => h !== hook), result: hook };
  });
}

/**
 * A URL as it may be shown (listed, logged): the password of its user information and the
 * values of its query replaced by `***` (either may hold a credential). Not a URL: shown cut
 * at its first '@', ':' after the scheme, or '?'.
 */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    const cut = url.search(/[@?]/);
    return cut < 0 ? url : `${url.slice(0, cut)}***`;
  }
  if (u.password !== '') u.password = '***';
  if (u.search !== '') u.search = [...u.searchParams.keys()].map((k) => `${encodeURIComponent(k)}=***`).join('&');
  return u.href.replace(/=%2A%2A%2A/g, '=***');
}

export function readWebhookState(dir: string): Record<string, WebhookState> {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, STATE), 'utf8')) as Record<string, WebhookState>;
  } catch {
    return {};
  }
}

/** One line of `webhook list`: the webhook, its position, the writes it still lacks, its last status. */
export function describeWebhook(h: Webhook, st: WebhookState | undefined, backlog: number): string {
  const last = st
    ? `${st.lastStatus}${st.lastAttempt ? ` at ${st.lastAttempt}` : ''}${st.failures ? `, ${st.failures} failures in a row` : ''}`
    : 'not started yet';
  const skipped = st?.skipped ? ` skipped=${st.skipped}` : '';
  const types = `types=${h.types.length ? h.types.join(',') : 'all'}${h.allowPrivate ? ' allow-private' : ''}`;
  return `${h.id} ${redactUrl(h.url)} ${types} delivered=${st?.delivered ?? '-'} backlog=${backlog}${skipped} last=${last}`;
}
