// Writes that reach a follower run on the writer, over NATS request/reply (subject
// calendar.<name>.write, which only the writer subscribes to): the follower sends the REST call
// (with the user it authenticated), the writer runs it and answers with the result and its seq.
// Chosen over an HTTP redirect: clients need no change (WordPress clients do not follow a 307 on
// writes uniformly), nodes need not know each other's HTTP addresses, and the embedding API on a
// follower works the same.
import type { NatsConnection } from '@nats-io/transport-node';
import { CalendarError, fail } from '../api/wordpress/errors.ts';
import type { RestCall, RestResult } from '../api/wordpress/types.ts';

interface Forwarded {
  ok?: RestResult;
  error?: { code: string; status: number; message: string; data?: Record<string, unknown> };
  seq: number;
}

export function notWriter(): CalendarError {
  return fail('rest_cluster_not_writer');
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The writer's side: runs one forwarded call, answers with the result (or the error) and its seq. */
export async function answerForwarded(
  data: Uint8Array,
  run: (call: RestCall) => Promise<RestResult>,
  seq: () => number,
): Promise<string> {
  let reply: Forwarded;
  try {
    const ok = await run(JSON.parse(Buffer.from(data).toString('utf8')) as RestCall);
    reply = { ok, seq: seq() };
  } catch (err) {
    const e =
      err instanceof CalendarError ? err : fail('internal_error', [], {}, { message: 'The writer failed the write.' });
    reply = { error: { code: e.code, status: e.status, message: e.message, data: e.data }, seq: seq() };
  }
  return JSON.stringify(reply);
}

/** The follower's side. */
export class Forwarder {
  /** forwarded writes waiting for the writer's answer: rejected when another node takes the lease */
  private readonly pending = new Set<() => void>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly subject: string,
  ) {}

  /** Another node took the lease: the one the pending writes went to may never answer. */
  writerChanged(): void {
    for (const fn of this.pending) fn();
  }

  /**
   * "No responders" (no writer right now: an election) is retried for up to `waitMs`; a request
   * that reached the writer is never sent twice.
   */
  async forward(call: RestCall, waitMs = 10_000): Promise<{ result: RestResult; seq: number }> {
    const until = Date.now() + waitMs;
    const payload = JSON.stringify(call);
    for (;;) {
      let text: string;
      let writerChanged!: () => void;
      const changed = new Promise<never>(
        (_resolve, reject) => (writerChanged = () => reject(new Error('writer changed'))),
      );
      this.pending.add(writerChanged);
      try {
        const request = this.nc.request(this.subject, payload, { timeout: Math.max(1_000, until - Date.now()) });
        request.catch(() => {});
        text = (await Promise.race([request, changed])).string();
      } catch (err) {
        const noWriter = /no responders|503/i.test((err as Error).message) || (err as { code?: string }).code === '503';
        if (noWriter && Date.now() < until) {
          await sleep(100);
          continue;
        }
        if (noWriter) throw fail('rest_cluster_no_writer');
        throw fail('rest_cluster_write_unknown');
      } finally {
        this.pending.delete(writerChanged);
      }
      const reply = JSON.parse(text) as Forwarded;
      if (reply.error?.code === 'rest_cluster_not_writer' && Date.now() < until) {
        await sleep(100);
        continue;
      }
      if (reply.error)
        throw new CalendarError(reply.error.code, reply.error.status, reply.error.message, reply.error.data);
      return { result: reply.ok!, seq: reply.seq };
    }
  }
}
