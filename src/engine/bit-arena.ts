// Bit sets kept in one WebAssembly memory, so that counting the rows in several of them at once
// runs as WebAssembly (bit-count.wat): two 32-row words a step with the processor's popcount,
// against a dozen shifts and masks a word in JavaScript. A search for two common words over half
// of ten million rows counts ~157,000 words of three sets: ~0.1 ms this way, ~0.75 ms in
// JavaScript.
//
// The memory is shared (a SharedArrayBuffer under it), so growing it never detaches the views
// already handed out: a set made before a growth keeps working. Blocks are 64-byte aligned and
// never move; a dropped block is reused by a later set of its size (or the smallest larger free
// one), and only after the current task, so a set dropped while a search still holds it (the
// kept sets' least recently used, evicted by the next set the same search asks for) stays whole
// until that search returns. Where the memory cannot be made (no WebAssembly, or the address
// space is capped), sets are plain Int32Arrays and counted in JavaScript.

import { BIT_COUNT_WASM } from './bit-count-wasm.ts';

const PAGE = 65536;
/** 4 GiB: the most a 32-bit WebAssembly memory can address (reserved, not committed) */
const MAX_PAGES = 65536;
const ALIGN = 64;

interface Counts {
  and1(a: number, p: number, n: number): number;
  and2(a: number, b: number, p: number, n: number): number;
  and3(a: number, b: number, c: number, p: number, n: number): number;
}

class Arena {
  /** every `memory.buffer` handed out: views of any of them address the same memory */
  private readonly buffers = new WeakSet<ArrayBufferLike>();
  private buffer: ArrayBufferLike;
  private top = 0;
  /** free blocks by size in bytes */
  private readonly free = new Map<number, number[]>();
  private pending: Int32Array[] = [];
  /** the size in bytes of each block given out, by its address */
  private readonly sizes = new Map<number, number>();
  used = 0;
  blocks = 0;

  constructor(
    private readonly memory: WebAssembly.Memory,
    readonly counts: Counts,
  ) {
    this.buffer = memory.buffer;
    this.buffers.add(this.buffer);
  }

  holds(bits: Int32Array): boolean {
    return this.buffers.has(bits.buffer);
  }

  /** `words` zeroed words, or undefined when the memory cannot grow to hold them */
  take(words: number): Int32Array | undefined {
    let size = Math.ceil((words * 4) / ALIGN) * ALIGN;
    let at: number;
    const fit = this.fit(size);
    const reused = fit >= 0;
    if (reused) {
      // a free block of that size, else the smallest larger one (it keeps its size)
      const list = this.free.get(fit)!;
      at = list.pop()!;
      if (list.length === 0) this.free.delete(fit);
      size = fit;
    } else {
      const need = this.top + size;
      if (need > this.buffer.byteLength) {
        try {
          this.memory.grow(Math.ceil((need - this.buffer.byteLength) / PAGE));
        } catch {
          return undefined;
        }
        this.buffer = this.memory.buffer;
        this.buffers.add(this.buffer);
      }
      at = this.top;
      this.top = need;
    }
    this.sizes.set(at, size);
    this.used += size;
    this.blocks++;
    const bits = new Int32Array(this.buffer, at, words);
    // memory past the old top was never written (a grown memory is zeroed): only a reused block
    if (reused) bits.fill(0);
    return bits;
  }

  /** the size of the smallest free block of at least `size` bytes, or -1 */
  private fit(size: number): number {
    let best = -1;
    for (const s of this.free.keys()) if (s >= size && (best < 0 || s < best)) best = s;
    return best;
  }

  drop(bits: Int32Array): void {
    if (this.pending.length === 0) queueMicrotask(() => this.flush());
    this.pending.push(bits);
  }

  private flush(): void {
    for (const bits of this.pending) {
      const at = bits.byteOffset,
        size = this.sizes.get(at);
      if (size === undefined) continue; // dropped twice
      this.sizes.delete(at);
      let list = this.free.get(size);
      if (list === undefined) this.free.set(size, (list = []));
      list.push(at);
      this.used -= size;
      this.blocks--;
    }
    this.pending = [];
  }
}

/** undefined until first asked; null when the memory or the module could not be made */
let arena: Arena | null | undefined;

function theArena(): Arena | null {
  if (arena !== undefined) return arena;
  try {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: MAX_PAGES, shared: true });
    const module = new WebAssembly.Module(Buffer.from(BIT_COUNT_WASM, 'base64'));
    const instance = new WebAssembly.Instance(module, { arena: { memory } });
    arena = new Arena(memory, instance.exports as unknown as Counts);
  } catch {
    arena = null;
  }
  return arena;
}

/** A zeroed bit set of `words` 32-bit words, in the arena when it can be (see andCounter). */
export function keptBits(words: number): Int32Array {
  return theArena()?.take(words) ?? new Int32Array(words);
}

/** Gives a set made by keptBits back, once the current task is done; no-op for one outside the
 *  arena. The caller must not use it after that task. */
export function dropBits(bits: Int32Array): void {
  const a = theArena();
  if (a?.holds(bits)) a.drop(bits);
}

/** Sets in the arena and bytes they take (with the dropped ones not yet reused): for tests. */
export function arenaStats(): { blocks: number; bytes: number } | null {
  const a = theArena();
  return a === null ? null : { blocks: a.blocks, bytes: a.used };
}

/** Counts bits set in words [from, to] of a fixed list of sets ANDed. */
export type AndCounter = (from: number, to: number) => number;

/**
 * A counter of the bits set in words [from, to] of every one of `sets` and `passing` ANDed, run
 * in WebAssembly; undefined when one of them is outside the arena or there are more than three
 * sets (the caller counts those itself). Made once for many ranges: the checks are done here.
 */
export function andCounter(sets: Int32Array[], passing: Int32Array): AndCounter | undefined {
  const a = theArena();
  if (a === null || sets.length === 0 || sets.length > 3 || !a.holds(passing)) return undefined;
  for (const s of sets) if (!a.holds(s)) return undefined;
  const { and1, and2, and3 } = a.counts,
    p = passing.byteOffset,
    x = sets[0].byteOffset,
    y = sets.length > 1 ? sets[1].byteOffset : 0,
    z = sets.length > 2 ? sets[2].byteOffset : 0;
  if (sets.length === 1) return (from, to) => (to < from ? 0 : and1(x + from * 4, p + from * 4, to - from + 1));
  if (sets.length === 2)
    return (from, to) => (to < from ? 0 : and2(x + from * 4, y + from * 4, p + from * 4, to - from + 1));
  return (from, to) => (to < from ? 0 : and3(x + from * 4, y + from * 4, z + from * 4, p + from * 4, to - from + 1));
}
