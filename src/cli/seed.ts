// The demo calendar that `serve` loads into an empty store (data/demo.json, made by
// data/make-demo.ts). Its dates are written relative to a base week; demoCalendar() moves every
// date by a whole number of weeks so the calendar starts in the current week (weekdays are kept).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { embedded, type DemoFile } from './embedded.ts';

// ---- the import shape (docs/import-export.md): typed in src/import/index.ts -----------------

import type { ImportCalendar as ImportData } from '../import/index.ts';
export type {
  ImportCalendar as ImportData,
  ImportCategory,
  ImportEvent,
  ImportOrganizer,
  ImportTag,
  ImportVenue,
} from '../import/index.ts';

export type { DemoFile } from './embedded.ts';

/** data/demo.json beside the sources; '' in the single executable, which embeds it (embedded.ts). */
export const DEMO_FILE = import.meta.url
  ? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/demo.json')
  : '';

const DAY_MS = 86_400_000;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})( \d{2}:\d{2}:\d{2})?$/;

/** UTC midnight of the Monday of the week holding `ms` (weeks run Monday to Sunday, ISO style). */
function mondayOf(ms: number): number {
  const day = Math.floor(ms / DAY_MS);
  const weekday = (new Date(day * DAY_MS).getUTCDay() + 6) % 7; // Monday = 0
  return (day - weekday) * DAY_MS;
}

function parseDay(value: string): number {
  const m = DATE_TIME.exec(value);
  if (!m) throw new Error(`demo data: expected 'Y-m-d H:i:s', got "${value}"`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

/** Moves a 'Y-m-d[ H:i:s]' wall time by `days` whole days, leaving the clock time alone. */
export function shiftDate(value: string, days: number): string {
  const m = DATE_TIME.exec(value);
  if (!m) throw new Error(`demo data: expected 'Y-m-d H:i:s', got "${value}"`);
  const d = new Date(parseDay(value) + days * DAY_MS);
  const ymd = `${String(d.getUTCFullYear()).padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
  return ymd + (m[4] ?? '');
}

/** Whole weeks from the base week of the file to the week holding `now` (UTC calendar). */
export function weeksToShift(baseDate: string, now: Date): number {
  return Math.round((mondayOf(now.getTime()) - mondayOf(parseDay(baseDate))) / (7 * DAY_MS));
}

/** Applies the week shift to every date of a demo file (publication dates too, so they stay in the past). */
export function shiftDemo(file: DemoFile, now: Date): ImportData {
  const days = weeksToShift(file.base_date, now) * 7;
  const post = <T extends { date: string }>(r: T): T => ({ ...r, date: shiftDate(r.date, days) });
  return {
    categories: file.categories.map((c) => ({ ...c })),
    tags: file.tags.map((t) => ({ ...t })),
    venues: file.venues.map(post),
    organizers: file.organizers.map(post),
    events: file.events.map((e) => ({
      ...post(e),
      start_date: shiftDate(e.start_date, days),
      end_date: shiftDate(e.end_date, days),
      categories: [...e.categories],
      tags: [...e.tags],
      organizer: [...e.organizer],
    })),
  };
}

export function readDemoFile(file = DEMO_FILE): DemoFile {
  if (file === DEMO_FILE && embedded.demo) return embedded.demo;
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as DemoFile;
  if (typeof data.base_date !== 'string' || !Array.isArray(data.events)) {
    throw new Error(`${file}: not a demo calendar (needs base_date and events)`);
  }
  return data;
}

/** The demo calendar with its first week moved to the week of `now`. */
export function demoCalendar(now: Date): ImportData {
  return shiftDemo(readDemoFile(), now);
}
