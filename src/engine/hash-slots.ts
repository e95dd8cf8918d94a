// The slot table of an open-addressing hash set whose entries are dense ids with their hashes
// kept beside them (the search index's vocabulary, an import's slugs): slots hold 1 + id, 0 for
// an empty slot, and an entry sits at its hash or the first empty slot after it (linear probing).
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
