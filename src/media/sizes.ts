// WordPress's image size arithmetic: the registered sizes (thumbnail 150×150 cropped, medium
// 300×300, medium_large 768 wide, large 1024×1024) and, for one of them, the dimensions of the
// file it makes of an original (wp_constrain_dimensions, image_resize_dimensions), or none when
// the original is not larger (WordPress never enlarges, and makes no copy the original's size).

export interface SizeSpec {
  name: string;
  /** 0 = no limit on that side */
  width: number;
  height: number;
  crop: boolean;
}

/** In WordPress's registration order (the order of `sizes` in every representation). */
export const SIZES: readonly SizeSpec[] = [
  { name: 'thumbnail', width: 150, height: 150, crop: true },
  { name: 'medium', width: 300, height: 300, crop: false },
  { name: 'medium_large', width: 768, height: 0, crop: false },
  { name: 'large', width: 1024, height: 1024, crop: false },
];

/** wp_constrain_dimensions: the largest size of that aspect ratio within max (0 = unbounded). */
export function constrain(w: number, h: number, maxW: number, maxH: number): [number, number] {
  if (!maxW && !maxH) return [w, h];
  let wr = 1,
    hr = 1,
    didW = false,
    didH = false;
  if (maxW > 0 && w > 0 && w > maxW) {
    wr = maxW / w;
    didW = true;
  }
  if (maxH > 0 && h > 0 && h > maxH) {
    hr = maxH / h;
    didH = true;
  }
  const smaller = Math.min(wr, hr),
    larger = Math.max(wr, hr);
  const ratio = phpRound(w * larger) > maxW || phpRound(h * larger) > maxH ? smaller : larger;
  let nw = Math.max(1, phpRound(w * ratio)),
    nh = Math.max(1, phpRound(h * ratio));
  // a side one pixel short of its limit is rounded up to it
  if (didW && nw === maxW - 1) nw = maxW;
  if (didH && nh === maxH - 1) nh = maxH;
  return [nw, nh];
}

/** PHP's round(): halves away from zero. */
function phpRound(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x));
}

/** What one size makes of a w×h original: the region to take and the size to scale it to. */
export interface ResizePlan {
  width: number;
  height: number;
  /** the source region (the whole image unless cropped) */
  left: number;
  top: number;
  cropWidth: number;
  cropHeight: number;
}

/** image_resize_dimensions: undefined when the size would not be smaller than the original. */
export function resizePlan(w: number, h: number, size: SizeSpec): ResizePlan | undefined {
  if (w <= 0 || h <= 0) return undefined;
  let nw: number,
    nh: number,
    cw = w,
    ch = h,
    left = 0,
    top = 0;
  if (size.crop) {
    const aspect = w / h;
    nw = Math.min(size.width, w);
    nh = Math.min(size.height, h);
    if (!nw) nw = phpRound(nh * aspect);
    if (!nh) nh = phpRound(nw / aspect);
    const sizeRatio = Math.max(nw / w, nh / h);
    cw = phpRound(nw / sizeRatio);
    ch = phpRound(nh / sizeRatio);
    left = Math.floor((w - cw) / 2);
    top = Math.floor((h - ch) / 2);
  } else {
    [nw, nh] = constrain(w, h, size.width, size.height);
  }
  // WordPress makes no copy the original's size, nor one that is not smaller on any side
  if (nw >= w && nh >= h) return undefined;
  return { width: nw, height: nh, left, top, cropWidth: cw, cropHeight: ch };
}
