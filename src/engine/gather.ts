// A column's values read at the positions of a permutation (out[i] = src[at[i]]), one array type
// into one array type per loop, so that each loop stays monomorphic: at millions of rows, a tight
// loop over one column at a time reads at random about twice as fast as a loop that reads every
// column of each row (the snapshot's events chunks, snapshot-gather.ts; the main index's load,
// sorted-index.ts).

/** An array a column's values are gathered from or into. */
export type Gatherable = Int32Array | Uint8Array | Uint16Array | Float64Array;

function gather32(src: Int32Array, at: Int32Array, out: Int32Array, n: number): void {
  for (let i = 0; i < n; i++) out[i] = src[at[i]];
}
function gather8(src: Uint8Array, at: Int32Array, out: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) out[i] = src[at[i]];
}
function gather16(src: Uint16Array, at: Int32Array, out: Uint16Array, n: number): void {
  for (let i = 0; i < n; i++) out[i] = src[at[i]];
}
function gather64(src: Float64Array, at: Int32Array, out: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) out[i] = src[at[i]];
}
/** Any other pair (a value converted to the buffer's type, as an assignment converts it). */
function gatherAny(src: Gatherable, at: Int32Array, out: Gatherable, n: number): void {
  for (let i = 0; i < n; i++) out[i] = src[at[i]];
}

/** out[i] = src[at[i]] for i in [0, n). */
export function gatherInto(src: Gatherable, at: Int32Array, out: Gatherable, n: number): void {
  if (src instanceof Int32Array && out instanceof Int32Array) gather32(src, at, out, n);
  else if (src instanceof Uint8Array && out instanceof Uint8Array) gather8(src, at, out, n);
  else if (src instanceof Uint16Array && out instanceof Uint16Array) gather16(src, at, out, n);
  else if (src instanceof Float64Array && out instanceof Float64Array) gather64(src, at, out, n);
  else gatherAny(src, at, out, n);
}

/** src read at the positions `at`, in a new array of src's type. */
export function gathered<T extends Gatherable>(src: T, at: Int32Array): T {
  const out = new (src.constructor as new (n: number) => T)(at.length);
  gatherInto(src, at, out, at.length);
  return out;
}
