// The printing shared by `npm run bench`'s two paths (bench/run.ts, bench/run-large.ts) and
// bench/scale.ts: numbers, markdown tables, the cross-check of two answers, and which path a
// calendar takes.

import type { ListResult } from './baselines/semantics.ts';

export function fmtMs(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return '-';
  return x < 0.01 ? x.toFixed(4) : x < 1 ? x.toFixed(3) : x < 100 ? x.toFixed(2) : x.toFixed(0);
}
export function fmtRatio(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return '-';
  return x < 10 ? x.toFixed(2) + 'x' : x.toFixed(0) + 'x';
}
export function fmtBytes(x: number): string {
  return Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '-';
}
export const mib = (x: number): string => (x / 2 ** 20).toFixed(1) + ' MiB';

/** A markdown table: the first column left-aligned, the others right-aligned, padded to their widths. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    '| ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ') + ' |';
  return [
    line(header),
    '|' + widths.map((w, i) => (i === 0 ? ':' : '') + '-'.repeat(w + 1) + (i === 0 ? '' : ':')).join('|') + '|',
    ...rows.map(line),
  ].join('\n');
}

/** How two answers to one query differ (status, total, page ids), or undefined when they agree. */
export function differ(a: Omit<ListResult, 'body'>, b: Omit<ListResult, 'body'>): string | undefined {
  if (a.status !== b.status) return `status ${a.status} vs ${b.status}`;
  if (a.status !== 200) return undefined;
  if (a.total !== b.total) return `total ${a.total} vs ${b.total}`;
  if (a.ids.join(',') !== b.ids.join(',')) return `page ids [${a.ids.join(',')}] vs [${b.ids.join(',')}]`;
  return undefined;
}

/** The line of the collector's pauses in the engine's process while the mix was timed. */
export function gcLine(gc: { count: number; maxMs: number; totalMs: number }): string {
  return (
    `GC in the engine's process while the mix was timed (perf_hooks 'gc' entries): longest pause ${fmtMs(gc.maxMs)} ms, ` +
    `${gc.count} collections, ${fmtMs(gc.totalMs)} ms in all`
  );
}

/**
 * The V8 heap the in-memory path asks for, MiB: the generated records, a fresh copy of them for
 * the engine's import, the engine, the arrays baseline and SQLite in memory, all in one process
 * (about 8 KB an event measured; with --recurring, far more a row).
 */
export function inMemoryHeapMb(events: number, recurring: boolean): number {
  return Math.max(4096, Math.ceil(2048 + events * (recurring ? 0.12 : 0.008)));
}

export interface PathChoice {
  large: boolean;
  why: string;
}

/**
 * Which path `npm run bench` takes: the in-memory one (the calendar generated as objects in this
 * process, the arrays baseline, SQLite in memory) while its heap fits in 80 % of the machine's
 * memory, else the large one (bench/run-large.ts: the streamed import file, `calendar-engine
 * import`, SQLite on disk). --large forces the large path; --recurring has only the in-memory one.
 */
export function choosePath(o: { events: number; recurring: boolean; forced: boolean; totalBytes: number }): PathChoice {
  const needMb = inMemoryHeapMb(o.events, o.recurring);
  const haveMb = Math.floor((o.totalBytes / 2 ** 20) * 0.8);
  const sizes = `the in-memory path needs a heap of about ${needMb.toLocaleString('en-US')} MiB, 80 % of this machine's memory is ${haveMb.toLocaleString('en-US')} MiB`;
  if (o.forced) {
    if (o.recurring) throw new Error('--large: the large path has no --recurring calendar (it streams the plain one)');
    return { large: true, why: `--large given (${sizes})` };
  }
  if (needMb <= haveMb || o.recurring) return { large: false, why: sizes };
  return { large: true, why: `${sizes}: the calendar is streamed instead` };
}

/** The figures bench/scale.ts prints for one size (its JSON line), those the side-by-side table shows. */
export interface ScaleResult {
  events: number;
  fileGiB: number;
  importS: number;
  importPeakRssMiB: number;
  snapshotGiB: number;
  listeningS: number;
  firstListS: number;
  firstSearchMs: number;
  /** when the server's background work after the load was done (s after spawn) */
  idleS?: number;
  rssAfterMixMiB: number;
  rssPerEventB: number;
  busyMs: { n: number; p50: number; p99: number; max: number };
  settledMs: { n: number; p50: number; p99: number; max: number };
  gcMaxMs: { startUp: number; mix: number };
  /** queries answered other than 200, with their status */
  notOk: string[];
}

/** bench/scale.ts's results for several sizes as one markdown table, a column a size. */
export function scaleTable(results: ScaleResult[]): string {
  const n = (x: number, digits = 2) =>
    Number.isFinite(x) ? x.toLocaleString('en-US', { maximumFractionDigits: digits }) : '-';
  const rows: [string, (r: ScaleResult) => string][] = [
    ['import file (GiB)', (r) => n(r.fileGiB)],
    ['import (s), `calendar-engine import FILE`, no flags', (r) => n(r.importS, 1)],
    ['import peak RSS (MiB)', (r) => n(r.importPeakRssMiB, 0)],
    ['snapshot (GiB)', (r) => n(r.snapshotGiB)],
    ['`serve`: listening line (s after spawn)', (r) => n(r.listeningS)],
    ['`serve`: first list answered (s)', (r) => n(r.firstListS)],
    ['first search (ms)', (r) => n(r.firstSearchMs, 0)],
    ['`serve`: background work after the load done (s after spawn)', (r) => n(r.idleS ?? Number.NaN, 1)],
    ['RSS after a search and the mix (MiB)', (r) => n(r.rssAfterMixMiB, 0)],
    ['RSS per event (B)', (r) => n(r.rssPerEventB, 0)],
    [
      'lists settled, over HTTP: p50 / p99 / max (ms)',
      (r) => `${n(r.settledMs.p50)} / ${n(r.settledMs.p99)} / ${n(r.settledMs.max)}`,
    ],
    [
      'lists in the 10 s after the first answer: count, p50 / p99 (ms)',
      (r) => `${r.busyMs.n}, ${n(r.busyMs.p50)} / ${n(r.busyMs.p99)}`,
    ],
    ['… their p99 over the settled p50 (target ≤ 10)', (r) => n(r.busyMs.p99 / r.settledMs.p50, 1)],
    ['longest GC pause: start-up / settled mix (ms)', (r) => `${n(r.gcMaxMs.startUp)} / ${n(r.gcMaxMs.mix)}`],
    ['queries answered other than 200', (r) => (r.notOk.length ? r.notOk.join(', ') : 'none')],
  ];
  const header = ['', ...results.map((r) => `${r.events.toLocaleString('en-US')} events`)];
  return table(
    header,
    rows.map(([name, f]) => [name, ...results.map(f)]),
  );
}

/**
 * The pages the warm pass reads (1-based): all of `totalPages` when they are at most `maxPages`,
 * else `maxPages` of them spread evenly over the whole list, the first and the last included, so
 * that every part of the calendar (its years, its statuses) is read, as a site's visitors do,
 * without reading every event (an hour at ten million events).
 */
export function spreadPages(totalPages: number, maxPages: number): number[] {
  if (totalPages <= 0 || maxPages <= 0) return [];
  if (totalPages <= maxPages) return Array.from({ length: totalPages }, (_, i) => i + 1);
  if (maxPages === 1) return [1];
  return Array.from({ length: maxPages }, (_, k) => 1 + Math.round((k * (totalPages - 1)) / (maxPages - 1)));
}
