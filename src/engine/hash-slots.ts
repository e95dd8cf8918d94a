// The slot table of an open-addressing hash set whose entries are dense ids with their hashes
// kept beside them (the search index's vocabulary, an import's titles): slots hold 1 + id, 0 for
// an empty slot, and an entry sits at its hash or the first empty slot after it (linear probing).
// For the largest tables, slot pairs that hold each id's hash too (pairSlots).
// Also a string hash (an import's slugs and the event rows by slug, slug-index.ts, use it).

/** A 32-bit hash of s's UTF-16 code units (FNV-1a, then murmur3's finaliser). */
export function stringHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/** A slot table of `size` slots (a power of two) holding ids 0 … count - 1 by hashes[id]. */
export function hashSlots(hashes: Int32Array, count: number, size: number): Int32Array<ArrayBuffer> {
  const slots = new Int32Array(size),
    mask = size - 1;
  for (let id = 0; id < count; id++) {
    let at = hashes[id] & mask;
    while (slots[at] !== 0) at = (at + 1) & mask;
    slots[at] = id + 1;
  }
  return slots;
}

/**
 * A table of slot pairs (for tables of millions of keys held elsewhere in memory: an import's
 * slugs, the link lists' pool): pair i is [2i] = 1 + id (0: empty) and [2i + 1] = the id's hash,
 * so a probe compares hashes in the slot it reads and reads a key only when they are equal. With
 * the hash beside each id instead, a probe of a table that big costs one more cache miss a slot.
 * `pairs` slot pairs, a power of two.
 */
export function pairSlots(pairs: number): Int32Array<ArrayBuffer> {
  return new Int32Array(2 * pairs);
}

/** The mask of a table of slot pairs (pairSlots): its number of pairs less one. */
export function pairMask(slots: Int32Array): number {
  return (slots.length >> 1) - 1;
}

/** The pairs of `slots` (pairSlots) in a table twice as large, each placed by its hash. */
export function grownPairs(slots: Int32Array): Int32Array<ArrayBuffer> {
  const out = new Int32Array(slots.length * 2),
    mask = pairMask(out);
  for (let j = 0; j < slots.length; j += 2) if (slots[j] !== 0) placePair(out, mask, slots[j], slots[j + 1]);
  return out;
}

/** Puts the pair (k, h) at the first empty slot from h (`mask`: the number of pairs less one). */
export function placePair(slots: Int32Array, mask: number, k: number, h: number): void {
  let at = h & mask;
  while (slots[2 * at] !== 0) at = (at + 1) & mask;
  slots[2 * at] = k;
  slots[2 * at + 1] = h;
}

/** `hashes` with hashes[id] = h, grown to twice its length when id is past its end. */
export function withHash(hashes: Int32Array<ArrayBuffer>, id: number, h: number): Int32Array<ArrayBuffer> {
  let out = hashes;
  if (id >= out.length) {
    out = new Int32Array(Math.max(out.length * 2, id + 1));
    out.set(hashes);
  }
  out[id] = h;
  return out;
}
