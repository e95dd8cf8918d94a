// The memory of a process tree, from /proc (Linux): what bench/scale.ts and the large path of
// `npm run bench` (bench/run-large.ts) report for `calendar-engine import` and `serve`, which run
// a child with a sized heap when a store is large (docs/operating.md#memory).

import fs from 'node:fs';
import http from 'node:http';
import type { ChildProcess } from 'node:child_process';

/** RSS of a process and its descendants, bytes (from /proc). */
export function treeRss(pid: number): number {
  let rss = 0;
  const status = (p: number) => {
    try {
      return fs.readFileSync(`/proc/${p}/status`, 'utf8');
    } catch {
      return '';
    }
  };
  const m = /^VmRSS:\s+(\d+) kB/m.exec(status(pid));
  if (m) rss += Number(m[1]) * 1024;
  for (const c of children(pid)) rss += treeRss(c);
  return rss;
}

function children(pid: number): number[] {
  let text = '';
  try {
    text = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
  } catch {}
  return text.trim().split(/\s+/).filter(Boolean).map(Number);
}

/** The pids below `pid` (from /proc). */
export function descendants(pid: number): number[] {
  return children(pid).flatMap((c) => [...descendants(c), c]);
}

/** Peak of treeRss while `child` runs, sampled every 250 ms. */
export function watchPeak(child: ChildProcess): { peak: () => number; stop: () => void } {
  let peak = 0;
  const t = setInterval(() => {
    if (child.pid) peak = Math.max(peak, treeRss(child.pid));
  }, 250);
  return { peak: () => peak, stop: () => clearInterval(t) };
}

/** CPU time (user + system) of a process and its descendants, seconds (from /proc). */
export function treeCpuS(pid: number): number {
  let ticks = 0;
  for (const p of [pid, ...descendants(pid)]) {
    let stat = '';
    try {
      stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
    } catch {
      continue;
    }
    // the fields after the command's closing parenthesis: utime and stime are the 12th and 13th
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks / CLOCK_TICKS;
}
/** USER_HZ: 100 on Linux's usual builds */
const CLOCK_TICKS = 100;

/**
 * Waits until a process tree is idle: its CPU time grows by under 5 % of a core over each of two
 * seconds running (at most `limitS`). Resolves with whether it went idle.
 */
export async function whenIdle(pid: number, limitS: number): Promise<boolean> {
  const until = performance.now() + limitS * 1000;
  let last = treeCpuS(pid),
    quiet = 0;
  while (performance.now() < until) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = treeCpuS(pid);
    quiet = now - last < 0.05 ? quiet + 1 : 0;
    last = now;
    if (quiet >= 2) return true;
  }
  return false;
}

/** GET base + p on `agent`, the body read and dropped: its status and the time to its end, ms. */
export function timedGet(base: string, agent: http.Agent, p: string): Promise<{ status: number; ms: number }> {
  const s = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${p}`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - s }));
      })
      .on('error', reject);
  });
}
