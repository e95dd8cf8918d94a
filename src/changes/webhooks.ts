// Webhooks: the change feed POSTed to receivers, in order per webhook, signed, retried.
//
// The registry, the state and the signatures: src/changes/webhook-registry.ts. Delivery keeps the
// changes not yet acknowledged by every webhook in outbox.jsonl, one line per write ({seq,
// changes}), appended as writes are acknowledged and rewritten without the lines every webhook
// has; a restart loses no pending delivery.
// A delivery is one POST of `{"changes": [...]}` (up to 500 writes' changes) with
// `X-Calendar-Signature: t=UNIX,v1=HEX`, HEX = HMAC-SHA256(secret, `${t}.${body}`) (as Stripe
// signs its webhooks). Anything but a 2xx within the timeout is retried with exponential backoff
// and jitter, for ever (the backoff is capped at `retryMaxMs`). A slow or dead receiver delays
// only itself.

import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { appendAll, writeFileAtomic, writeFileAtomicSync } from '../store/atomic-file.ts';
import { changeText, type Change, type ChangeFeed, type ChangeType } from './feed.ts';
import { OUTBOX, REGISTRY, STATE, readWebhookState, readWebhooks, signature, type Webhook, type WebhookState } from './webhook-registry.ts';

// ---- delivery (the process that writes to the store) ------------------------------------------

export interface DispatchOptions {
  /** first retry after about this long, doubling up to retryMaxMs (defaults 1 s and 1 h) */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** a receiver must answer within this long (default 10 s) */
  timeoutMs?: number;
  /** how often webhooks.json is checked for changes (default 1 s) */
  reloadMs?: number;
  /** after a delivery, wait this long for more writes before the next one, unless a full batch
   *  is waiting (default 50 ms): under a steady stream of writes, fewer and larger POSTs */
  lingerMs?: number;
  log?: (line: string) => void;
}

interface OutboxWrite {
  seq: number;
  changes: Change[];
}

/** The JSON texts of a write's changes, comma-separated: made once for the outbox line and every
 *  webhook that wants all of them. */
const writeTexts = new WeakMap<OutboxWrite, string>();
function writeText(w: OutboxWrite): string {
  let t = writeTexts.get(w);
  if (t === undefined) writeTexts.set(w, (t = w.changes.map(changeText).join(',')));
  return t;
}

const BATCH_WRITES = 500;

export class WebhookDispatcher {
  private hooks: Webhook[] = [];
  private registryStamp = '';
  private state: Record<string, WebhookState>;
  /** writes not yet delivered to every webhook, in seq order */
  private outbox: OutboxWrite[] = [];
  private readonly running = new Map<string, { wake(): void }>();
  private stopped = false;
  private readonly timer: NodeJS.Timeout;
  private readonly off: () => void;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly timeoutMs: number;
  private readonly lingerMs: number;
  private readonly log: (line: string) => void;

  constructor(private readonly dir: string, private readonly feed: ChangeFeed, opts: DispatchOptions = {}) {
    this.retryBaseMs = opts.retryBaseMs ?? 1_000;
    this.retryMaxMs = opts.retryMaxMs ?? 3_600_000;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.lingerMs = opts.lingerMs ?? 50;
    this.log = opts.log ?? ((line) => console.error(line));
    this.state = readWebhookState(dir);
    for (const line of this.readOutbox()) this.outbox.push(line);
    try {
      this.hooks = readWebhooks(dir);
    } catch (err) {
      this.log(`calendar-engine: webhooks: ${(err as Error).message}`);
    }
    // writes acknowledged before a crash but not yet in the outbox: the feed rebuilt them from the
    // journal (for webhooks that existed then: their cursor is behind)
    const tail = this.outbox.length > 0 ? this.outbox[this.outbox.length - 1].seq : -1;
    const behind = Math.min(...this.hooks.map((h) => this.state[h.id]?.delivered ?? feed.head));
    const from = Math.max(tail, behind, feed.floor);
    if (this.hooks.length > 0 && from < feed.head) this.appendMissing(feed.after(from, Number.POSITIVE_INFINITY, () => true).changes, tail);
    this.reload();
    this.off = feed.on((held) => {
      if (this.hooks.length === 0) return;
      const write = { seq: held[0].change.seq, changes: held.map((h) => h.change) };
      this.append(write);
      for (const r of this.running.values()) r.wake();
    });
    this.timer = setInterval(() => this.reload(), opts.reloadMs ?? 1_000);
    this.timer.unref();
  }

  private readOutbox(): OutboxWrite[] {
    try {
      const out: OutboxWrite[] = [];
      for (const line of fs.readFileSync(path.join(this.dir, OUTBOX), 'utf8').split('\n')) {
        if (!line) continue;
        try {
          out.push(JSON.parse(line) as OutboxWrite);
        } catch {
          // a torn last line (a crash while appending): that write is re-added from the feed
        }
      }
      return out;
    } catch {
      return [];
    }
  }

  private appendMissing(changes: Change[], tail: number): void {
    if (this.hooks.length === 0) return;
    for (let i = 0; i < changes.length;) {
      let j = i + 1;
      while (j < changes.length && changes[j].seq === changes[i].seq) j++;
      if (changes[i].seq > tail) this.append({ seq: changes[i].seq, changes: changes.slice(i, j) });
      i = j;
    }
  }

  /** Lines waiting for the next append: the writes acknowledged in one tick go out in one
   *  append (a crash before it loses nothing: the journal has them, see the constructor). */
  private appending = '';
  /** outbox.jsonl, kept open for appends between rewrites */
  private outboxFd: number | undefined;

  private closeOutbox(): void {
    if (this.outboxFd !== undefined) fs.closeSync(this.outboxFd);
    this.outboxFd = undefined;
  }

  private append(write: OutboxWrite): void {
    this.outbox.push(write);
    if (this.appending === '') setImmediate(() => this.flushAppends());
    this.appending += `{"seq":${write.seq},"changes":[${writeText(write)}]}\n`;
  }

  private flushAppends(): void {
    if (this.appending === '') return;
    appendAll((this.outboxFd ??= fs.openSync(path.join(this.dir, OUTBOX), 'a')), this.appending);
    this.appending = '';
  }

  /** Re-read webhooks.json when it changed; start a loop for each new webhook. True if any. */
  private reload(): boolean {
    let stamp = '';
    try {
      const st = fs.statSync(path.join(this.dir, REGISTRY));
      stamp = `${st.mtimeMs}:${st.size}`;
    } catch {
      stamp = 'none';
    }
    if (stamp !== this.registryStamp) {
      this.registryStamp = stamp;
      try {
        this.hooks = readWebhooks(this.dir);
      } catch (err) {
        this.log(`calendar-engine: webhooks: ${(err as Error).message}`);
      }
      for (const h of this.hooks) {
        // a new webhook starts with the next write
        if (!this.state[h.id]) this.state[h.id] = { delivered: this.feed.head, lastStatus: 'new', lastAttempt: '', failures: 0 };
        if (!this.running.has(h.id) && !this.stopped) this.loop(h);
      }
      let dropped = false;
      for (const id of Object.keys(this.state)) {
        if (!this.hooks.some((h) => h.id === id)) {
          delete this.state[id];
          dropped = true;
        }
      }
      if (this.hooks.length > 0 || dropped) this.saveState(true);
    }
    return this.hooks.length > 0;
  }

  private saveTimer: NodeJS.Timeout | undefined;
  /** the save being written (off the event loop), and whether the state changed since it began */
  private saving: Promise<void> | undefined;
  private dirty = false;

  /** Positions are saved at most every 100 ms (and at stop), written and synced off the event
   *  loop so that deliveries never hold up writes: after a crash, the deliveries of those last
   *  100 ms may come again (receivers can tell by seq). `now`: at once (synchronously, unless a
   *  save is being written, which then writes again with the newest state). */
  private saveState(now = false): void {
    if (now) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
      if (this.saving) this.dirty = true;
      else writeFileAtomicSync(path.join(this.dir, STATE), this.stateText());
      return;
    }
    if (this.saveTimer || this.stopped) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.writeState();
    }, 100);
    this.saveTimer.unref();
  }

  private stateText(): string {
    return JSON.stringify(this.state, null, 2) + '\n';
  }

  /** One save at a time, each of the state as it is when it begins; again if it changed meanwhile. */
  private async writeState(): Promise<void> {
    if (this.saving) {
      this.dirty = true;
      return;
    }
    do {
      this.dirty = false;
      this.saving = writeFileAtomic(path.join(this.dir, STATE), this.stateText()).catch((err: Error) => {
        this.log(`calendar-engine: webhooks: saving ${STATE}: ${err.message}`);
      });
      await this.saving;
      this.saving = undefined;
    } while (this.dirty && !this.stopped);
  }

  /** Drop the outbox lines every webhook has (rewriting the file once enough are gone). */
  private trim(): void {
    const floor = Math.min(...this.hooks.map((h) => this.state[h.id]?.delivered ?? 0));
    const drop = this.firstAfter(floor);
    if (drop < 4096 && drop < this.outbox.length) return;
    this.flushAppends();
    this.outbox = this.outbox.slice(drop);
    // replaced by rename, not synced: a crash may leave the older (longer) outbox, which only
    // means deliveries a webhook already has are skipped by its position
    this.closeOutbox();
    const file = path.join(this.dir, OUTBOX), tmp = `${file}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, this.outbox.map((w) => JSON.stringify(w) + '\n').join(''));
    fs.renameSync(tmp, file);
  }

  /** Index of the first outbox write with seq > `seq`. */
  private firstAfter(seq: number): number {
    let lo = 0, hi = this.outbox.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.outbox[mid].seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private loop(hook: Webhook): void {
    let wake: (() => void) | undefined;
    const handle = { wake: () => wake?.() };
    this.running.set(hook.id, handle);
    const sleep = (ms: number) => new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      t.unref();
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
    void (async () => {
      while (!this.stopped && this.hooks.some((h) => h.id === hook.id)) {
        const st = this.state[hook.id];
        const first = this.firstAfter(st.delivered);
        const end = Math.min(this.outbox.length, first + BATCH_WRITES);
        const last = end > first ? this.outbox[end - 1].seq : st.delivered;
        if (last === st.delivered) {
          await sleep(this.retryMaxMs);
          continue;
        }
        const body = this.body(first, end, hook.types);
        if (body === undefined) {
          st.delivered = last; // nothing it wants in these writes
          this.saveState();
          continue;
        }
        const status = await this.post(hook, body);
        st.lastAttempt = new Date().toISOString();
        st.lastStatus = status;
        if (/^2\d\d$/.test(status)) {
          st.delivered = last;
          st.failures = 0;
          this.saveState();
          this.trim();
          if (this.lingerMs > 0 && this.outbox.length - this.firstAfter(last) < BATCH_WRITES) {
            await new Promise<void>((resolve) => setTimeout(resolve, this.lingerMs).unref());
          }
        } else {
          st.failures++;
          this.saveState();
          const backoff = Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** Math.min(st.failures - 1, 30));
          await sleep(backoff / 2 + Math.random() * (backoff / 2)); // jitter: between half and all of it
        }
      }
      this.running.delete(hook.id);
    })();
  }

  /** keep-alive connections to the receivers (node:http: a delivery costs a fraction of fetch's CPU) */
  private readonly agents = { http: new http.Agent({ keepAlive: true, maxSockets: 4 }), https: new https.Agent({ keepAlive: true, maxSockets: 4 }) };

  /** The last body made, for the webhooks that take the same writes with the same types next
   *  (webhooks that keep up wake together and ask for the same batch). */
  private lastBody: { first: Change | undefined; end: Change | undefined; types: string; body: Buffer | undefined } | undefined;

  /** `{"changes":[...]}` (UTF-8) of the outbox writes [first, end) that `types` wants; undefined: none. */
  private body(first: number, end: number, types: ChangeType[]): Buffer | undefined {
    const key = types.join(','), a = this.outbox[first].changes[0], b = this.outbox[end - 1].changes[0];
    const memo = this.lastBody;
    if (memo !== undefined && memo.first === a && memo.end === b && memo.types === key) return memo.body;
    const parts: string[] = [];
    for (let i = first; i < end; i++) {
      const w = this.outbox[i];
      if (types.length === 0) parts.push(writeText(w));
      else for (const c of w.changes) if (types.includes(c.type)) parts.push(changeText(c));
    }
    const body = parts.length === 0 ? undefined : Buffer.from(`{"changes":[${parts.join(',')}]}`, 'utf8');
    this.lastBody = { first: a, end: b, types: key, body };
    return body;
  }

  private post(hook: Webhook, body: Buffer): Promise<string> {
    const t = Math.floor(Date.now() / 1000);
    return new Promise<string>((resolve) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const done = (status: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(status);
      };
      let req: http.ClientRequest;
      try {
        const url = new URL(hook.url);
        const secure = url.protocol === 'https:';
        req = (secure ? https : http).request(url, {
          method: 'POST',
          agent: secure ? this.agents.https : this.agents.http,
          headers: {
            'content-type': 'application/json', 'content-length': body.length,
            'x-calendar-signature': signature(hook.secret, t, body), 'x-calendar-webhook': hook.id,
          },
        }, (res) => {
          res.resume(); // the answer's body is not read, only drained
          res.on('end', () => done(String(res.statusCode)));
          res.on('error', (err) => done(`error: ${err.message}`));
        });
      } catch (err) {
        return done(`error: ${(err as Error).message}`);
      }
      timer = setTimeout(() => {
        done('timeout');
        req.destroy();
      }, this.timeoutMs);
      timer.unref();
      req.on('error', (err) => done(`error: ${err.message}`));
      req.end(body);
    });
  }

  /** Stop delivering (pending ones stay in the outbox for the next start); the positions are
   *  saved last, after any save still being written. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.saveTimer);
    this.off();
    this.flushAppends();
    this.closeOutbox();
    this.agents.http.destroy();
    this.agents.https.destroy();
    for (const r of this.running.values()) r.wake();
    const wanted = this.saveTimer !== undefined || this.saving !== undefined || this.hooks.length > 0;
    this.saveTimer = undefined;
    while (this.saving) await this.saving;
    if (wanted) writeFileAtomicSync(path.join(this.dir, STATE), this.stateText());
  }
}
