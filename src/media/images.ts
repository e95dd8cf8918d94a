// The image work of an upload: the type from the file's first bytes, then sharp (libvips) reads
// it whole and writes the standard sizes in the same format. sharp is loaded on first use, from
// this package's node_modules, or in the single executable from the `node_modules` folder beside
// the binary (imageLibrary.from, set by src/cli/binary-entry.ts): a native module cannot be
// inside it. Its work runs on libuv's thread pool, one size after another, so an upload keeps at
// most one pool thread busy and the event loop free for other requests.

import { createRequire } from 'node:module';
import path from 'node:path';
import { CalendarError, fail } from '../api/wordpress/errors.ts';
import { SIZES, resizePlan } from './sizes.ts';

type Sharp = typeof import('sharp').default;

/** Where sharp is resolved from: a file path or URL (default this module). */
export const imageLibrary: { from?: string } = {};

let sharpLib: Sharp | undefined;

/** sharp, loaded once; a clear 501 when it is not installed (or not beside the binary). */
export function loadSharp(): Sharp {
  if (sharpLib) return sharpLib;
  const from = imageLibrary.from ?? import.meta.url;
  try {
    sharpLib = createRequire(from)('sharp') as Sharp;
    return sharpLib;
  } catch (err) {
    const where = from ? path.dirname(from.replace(/^file:\/\//, '')) : 'here';
    throw fail('rest_upload_image_library_missing', [where, (err as Error).message.split('\n')[0]!]);
  }
}

/** The image type of a file from its first bytes (JPEG, PNG, GIF, WebP), or undefined. */
export function sniffImage(b: Uint8Array): string | undefined {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  )
    return 'image/png';
  if (
    b.length >= 6 &&
    b[0] === 0x47 &&
    b[1] === 0x49 &&
    b[2] === 0x46 &&
    b[3] === 0x38 &&
    (b[4] === 0x37 || b[4] === 0x39) &&
    b[5] === 0x61
  )
    return 'image/gif';
  if (
    b.length >= 12 &&
    b[0] === 0x52 &&
    b[1] === 0x49 &&
    b[2] === 0x46 &&
    b[3] === 0x46 &&
    b[8] === 0x57 &&
    b[9] === 0x45 &&
    b[10] === 0x42 &&
    b[11] === 0x50
  )
    return 'image/webp';
  return undefined;
}

export interface MadeSize {
  name: string;
  width: number;
  height: number;
  data: Buffer;
}

export interface ProcessedImage {
  width: number;
  height: number;
  sizes: MadeSize[];
}

/** WordPress's default output qualities (wp_editor_set_quality: 82; WebP 86). */
const QUALITY = { jpeg: 82, webp: 86 };

const FORMAT: Record<string, 'jpeg' | 'png' | 'gif' | 'webp'> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * Reads the whole image (a file that is not the image its bytes claim fails here: the caller
 * answers 400) and makes every standard size smaller than it, in the original's format.
 */
export async function processImage(data: Buffer, mime: string): Promise<ProcessedImage> {
  const sharp = loadSharp();
  const format = FORMAT[mime];
  let width: number, height: number;
  try {
    const meta = await sharp(data, { failOn: 'error' }).metadata();
    if (meta.format !== format) throw new Error(`the file is ${meta.format ?? 'unknown'} data`);
    if (!meta.width || !meta.height) throw new Error('the image has no dimensions');
    width = meta.width;
    height = meta.height;
  } catch (err) {
    throw notAnImage(err);
  }
  const sizes: MadeSize[] = [];
  const done = new Map<string, MadeSize>();
  for (const spec of SIZES) {
    const plan = resizePlan(width, height, spec);
    if (!plan) continue;
    const key = `${plan.width}x${plan.height}`;
    const same = done.get(key);
    if (same) {
      sizes.push({ ...same, name: spec.name });
      continue;
    }
    let img = sharp(data, { failOn: 'error' });
    if (plan.cropWidth !== width || plan.cropHeight !== height) {
      img = img.extract({ left: plan.left, top: plan.top, width: plan.cropWidth, height: plan.cropHeight });
    }
    img = img.resize(plan.width, plan.height, { fit: 'fill' });
    img =
      format === 'jpeg'
        ? img.jpeg({ quality: QUALITY.jpeg })
        : format === 'webp'
          ? img.webp({ quality: QUALITY.webp })
          : format === 'png'
            ? img.png()
            : img.gif();
    let out: Buffer;
    try {
      out = await img.toBuffer();
    } catch (err) {
      throw notAnImage(err);
    }
    const made = { name: spec.name, width: plan.width, height: plan.height, data: out };
    done.set(key, made);
    sizes.push(made);
  }
  if (sizes.length === 0) {
    // nothing was resized, so nothing has decoded the pixels yet: a broken file fails here
    try {
      await sharp(data, { failOn: 'error' }).raw().toBuffer();
    } catch (err) {
      throw notAnImage(err);
    }
  }
  return { width, height, sizes };
}

function notAnImage(err: unknown): CalendarError {
  if (err instanceof CalendarError) return err;
  const why = (err as Error).message.split('\n')[0].replace(/^Input buffer (contains|has) /, '');
  return fail('rest_upload_sideload_error', [why]);
}
