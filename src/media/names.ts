// File names as WordPress makes them: sanitize_file_name (what may stay in a name), the real
// type's extension (a PNG sent as photo.jpg is stored as photo.png), and wp_unique_filename's
// `-1`, `-2` … before the extension while the name, or a size file it would make, is taken.

import { removeAccents } from '../api/wordpress/text.ts';

/** The extensions WordPress maps to each image type we store; the first is the one it writes. */
export const IMAGE_TYPES: Readonly<Record<string, readonly string[]>> = {
  'image/jpeg': ['jpg', 'jpeg', 'jpe'],
  'image/png': ['png'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
};

/** The image type an extension names ('jpeg' → 'image/jpeg'), if it is one we store. */
export function typeOfExtension(ext: string): string | undefined {
  const e = ext.toLowerCase();
  for (const [mime, exts] of Object.entries(IMAGE_TYPES)) if (exts.includes(e)) return mime;
  return undefined;
}

const SPECIAL = [
  '?',
  '[',
  ']',
  '/',
  '\\',
  '=',
  '<',
  '>',
  ':',
  ';',
  ',',
  "'",
  '"',
  '&',
  '$',
  '#',
  '*',
  '(',
  ')',
  '|',
  '~',
  '`',
  '!',
  '{',
  '}',
  '%',
  '+',
  '\u2019',
  '\u00ab',
  '\u00bb',
  '\u201d',
  '\u201c',
  '\0',
];

/** sanitize_file_name, for the names we store (one extension, image types only). */
export function sanitizeFileName(raw: string): string {
  let s = removeAccents(raw).replace(/\u00a0/g, ' ');
  for (const c of SPECIAL) s = s.split(c).join('');
  s = s.replace(/%20|\+/g, '-');
  s = s.replace(/\.{2,}/g, '.');
  s = s.replace(/[\r\n\t -]+/g, '-');
  s = s.replace(/^[.\-_]+|[.\-_]+$/g, '');
  // a name of several dots: WordPress adds '_' after each inner part that looks like an extension
  const parts = s.split('.');
  if (parts.length > 2) {
    const ext = parts.pop()!;
    const base = parts.shift()!;
    s =
      base +
      parts.map((p) => (/^[a-zA-Z]{2,5}\d?$/.test(p) && !typeOfExtension(p) ? `.${p}_` : `.${p}`)).join('') +
      `.${ext}`;
  }
  return s;
}

/** Splits 'a.b.JPG' into ['a.b', 'JPG'] ('' when there is no extension). */
export function splitExtension(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? [name, ''] : [name.slice(0, dot), name.slice(dot + 1)];
}

/**
 * The name to store an upload under: sanitised, with the real type's extension (lower case) when
 * the given one names another type, and `unnamed-file` when nothing is left of it.
 */
export function storedName(given: string, mime: string): string {
  const [base0, ext0] = splitExtension(sanitizeFileName(given));
  const exts = IMAGE_TYPES[mime];
  const ext = exts.includes(ext0.toLowerCase()) ? ext0.toLowerCase() : exts[0];
  const base = base0 === '' ? 'unnamed-file' : base0;
  return `${base}.${ext}`;
}

/**
 * wp_unique_filename: `name.ext`, else `name-1.ext`, `name-2.ext` …, the first for which `taken`
 * is false for the name and for every size file it would make (`name-1-150x150.ext`).
 */
export function uniqueName(name: string, sizeSuffixes: readonly string[], taken: (name: string) => boolean): string {
  const [base, ext] = splitExtension(name);
  const clash = (b: string) => taken(`${b}.${ext}`) || sizeSuffixes.some((s) => taken(`${b}-${s}.${ext}`));
  if (!clash(base)) return name;
  for (let n = 1; ; n++) if (!clash(`${base}-${n}`)) return `${base}-${n}.${ext}`;
}
