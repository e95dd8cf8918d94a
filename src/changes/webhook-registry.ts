// The webhooks' registry and signatures: what `calendar-engine webhook add|list|remove` and the
// server share. Files in the store directory:
//  - webhooks.json        the registry: id, url, types, secret. The server re-reads it within a second.
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
import { writeFileAtomicSync } from '../store/atomic-file.ts';
import { CHANGE_TYPES, type ChangeType } from './feed.ts';

export interface Webhook {
  id: string;
  url: string;
  /** the change types it wants (all when empty) */
  types: ChangeType[];
  secret: string;
  created: string;
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
export function verifySignature(secret: string, header: string, body: string, nowS = Math.floor(Date.now() / 1000), toleranceS = 300): boolean {
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

function writeWebhooks(dir: string, hooks: Webhook[]): void {
  fs.mkdirSync(dir, { recursive: true });
  writeFileAtomicSync(path.join(dir, REGISTRY), JSON.stringify({ webhooks: hooks }, null, 2) + '\n', { mode: 0o600 });
}

/** A new webhook's record, its URL, types and secret checked. */
export function newWebhook(url: string, types: ChangeType[] = [], secret?: string): Webhook {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookError(`not a URL: '${url}'`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new WebhookError(`expected an http or https URL, got '${url}'`);
  for (const t of types) if (!CHANGE_TYPES.includes(t)) throw new WebhookError(`unknown change type '${t}' (expected ${CHANGE_TYPES.join(', ')})`);
  if (secret !== undefined && secret.length < 16) throw new WebhookError('the secret must be at least 16 characters');
  return { id: `wh_${randomBytes(6).toString('hex')}`, url, types, secret: secret ?? randomBytes(24).toString('base64url'), created: new Date().toISOString() };
}

export function addWebhook(dir: string, url: string, types: ChangeType[] = [], secret?: string): Webhook {
  return saveWebhook(dir, newWebhook(url, types, secret));
}

/** Adds `hook` (from newWebhook) to the store's registry. */
export function saveWebhook(dir: string, hook: Webhook): Webhook {
  writeWebhooks(dir, [...readWebhooks(dir), hook]);
  return hook;
}

/** The webhook named by its id or URL. */
export function findWebhook(hooks: Webhook[], idOrUrl: string): Webhook {
  const hook = hooks.find((h) => h.id === idOrUrl || h.url === idOrUrl);
  if (!hook) throw new WebhookError(`no webhook '${idOrUrl}'`);
  return hook;
}

export function removeWebhook(dir: string, idOrUrl: string): Webhook {
  const hooks = readWebhooks(dir);
  const hook = findWebhook(hooks, idOrUrl);
  writeWebhooks(dir, hooks.filter((h) => h !== hook));
  return hook;
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
  const last = st ? `${st.lastStatus}${st.lastAttempt ? ` at ${st.lastAttempt}` : ''}${st.failures ? `, ${st.failures} failures in a row` : ''}` : 'not started yet';
  const skipped = st?.skipped ? ` skipped=${st.skipped}` : '';
  return `${h.id} ${h.url} types=${h.types.length ? h.types.join(',') : 'all'} delivered=${st?.delivered ?? '-'} backlog=${backlog}${skipped} last=${last}`;
}
