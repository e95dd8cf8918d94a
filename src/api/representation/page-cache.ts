// Whole list answers kept for the HTTP shell, in the piece cache and under its byte budget: the
// body as its ASCII bytes, ready for the socket, and its headers. A page is keyed by what its
// answer is made from once the request is planned (the engine query with its resolved dates,
// terms, geo and paging, and the envelope's URL arguments), never by the request's text, so a
// window that moves with the clock gets a new key when it moves. Every page is dropped when the
// engine's state changes (Engine.version), so a page kept is exactly the answer made now.
//
// A page is kept on its second sight within a window of sights (a doorkeeper, as the piece cache
// does for event rows): a crawl over many lists read once does not push out the pieces and pages
// read again and again.

import type { EngineApi } from '../../engine/engine-api.ts';
import type { RestResult } from '../wordpress/types.ts';
import type { PieceCache } from './piece-cache.ts';

/** What a kept page costs besides its body's bytes (key, headers, entry) */
const PAGE_OVERHEAD = 256;
/** sights remembered before the doorkeeper's window closes */
const SIGHTS = 4096;

interface PageEntry {
  headers: Record<string, string>;
  bytes: Buffer;
}

/** A kept page as an answer: the body's bytes ready (RestResult.bytes), its text made only if read. */
class KeptPage implements RestResult {
  readonly status = 200;
  private text: string | undefined;
  constructor(
    readonly headers: Record<string, string>,
    readonly bytes: Buffer,
    private readonly engine: EngineApi,
    /** the engine's version the page was kept at and read in */
    private readonly version: number,
  ) {}
  /** nothing was written since the page was read (RestResult.current) */
  current(): boolean {
    return this.engine.version === this.version;
  }
  get body(): string {
    return (this.text ??= this.bytes.toString('latin1'));
  }
  toJSON(): Omit<RestResult, 'current'> {
    return { status: this.status, headers: this.headers, body: this.body };
  }
}

export class ListPages {
  private version = -1;
  private readonly seen = new Set<string>();

  constructor(
    private readonly cache: PieceCache,
    private readonly engine: EngineApi,
  ) {}

  /** Drops every page when the engine changed since they were kept. */
  private current(): void {
    const v = this.engine.version;
    if (v === this.version) return;
    this.version = v;
    this.cache.dropPages();
    this.seen.clear();
  }

  /** The answer kept under `key`, or undefined. */
  get(key: string): RestResult | undefined {
    this.current();
    const e = this.cache.getPage(key) as PageEntry | undefined;
    return e === undefined ? undefined : new KeptPage(e.headers, e.bytes, this.engine, this.version);
  }

  /** Offers the answer made for `key` (its body's parts, all ASCII); kept on its second offer. */
  offer(key: string, parts: readonly string[], headers: Record<string, string>): void {
    this.current();
    if (!this.seen.has(key)) {
      if (this.seen.size >= SIGHTS) this.seen.clear();
      this.seen.add(key);
      return;
    }
    this.seen.delete(key);
    const bytes = Buffer.from(parts.join(''), 'latin1');
    this.cache.setPage(key, { headers, bytes }, bytes.length + key.length + PAGE_OVERHEAD);
  }
}
