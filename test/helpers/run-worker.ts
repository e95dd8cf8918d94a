// One of test/run.ts's worker processes: reads test file paths from stdin, one a line, and runs
// each file's uvu suites in turn (what uvu's own runner does for a list of files, one file at a
// time). After a file's tests it waits up to TEST_LINGER_MS (default 5000) for the event loop to
// hold no more than it held before the file: a server, socket, ref'd timer, child process or
// watcher the file started and left open would keep a process alive after its tests, so the file
// fails, with what is still open. Each file ends with one line for the runner:
// RESULT_MARK + JSON {file, total, passed, skipped, failed, ms, cpuMs, lingering}.
// With TEST_TRACE_HANDLES=1 the stack that created each lingering resource is printed too
// (async_hooks; slower, for finding a leak).
import { createHook } from 'node:async_hooks';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';

/** begins the result line (test/run.ts has the same) */
const RESULT_MARK = '\u001etest-file-result ';
const TEST_DIR = process.env.TEST_DIR ?? path.resolve('test');

type Test = () => Promise<[errors: string, ran: number, skipped: number, total: number]>;
declare global {
  var UVU_DEFER: number | undefined;
  var UVU_INDEX: number | undefined;
  var UVU_QUEUE: Array<Array<string | Test>>;
}

const LINGER_MS = Number(process.env.TEST_LINGER_MS ?? 5_000);

/** async resources still alive, with the stacks that made them (only with TEST_TRACE_HANDLES=1) */
const made = new Map<number, { type: string; stack: string; resource: object }>();
let lastId = 0;
if (process.env.TEST_TRACE_HANDLES === '1') {
  Error.stackTraceLimit = 30;
  createHook({
    init(id, type, _trigger, resource) {
      lastId = id;
      if (type === 'PROMISE') return;
      made.set(id, { type, stack: new Error().stack?.split('\n').slice(2).join('\n') ?? '', resource });
    },
    destroy(id) {
      made.delete(id);
    },
  }).enable();
}

/** the event loop's ref'd resources, counted by kind ('Timeout', 'TCPServerWrap', ...) */
function resources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) counts.set(r, (counts.get(r) ?? 0) + 1);
  return counts;
}

/** what `now` holds beyond `before`, e.g. ['Timeout ×2', 'TCPServerWrap'] */
function beyond(before: Map<string, number>, now: Map<string, number>): string[] {
  const extra: string[] = [];
  for (const [kind, n] of now) {
    const more = n - (before.get(kind) ?? 0);
    if (more > 0) extra.push(more > 1 ? `${kind} ×${more}` : kind);
  }
  return extra;
}

/** the creation stacks of the traced resources made after `since` and still ref'd */
function traces(since: number, kinds: string[]): string {
  // getActiveResourcesInfo's names (TCPSocketWrap) and async_hooks' types (TCPWRAP), alike
  const kind = (k: string) => k.toLowerCase().replace('socket', '').replace(/wrap$/, '');
  const wanted = new Set(kinds.map((k) => kind(k.replace(/ ×\d+$/, ''))));
  const lines: string[] = [];
  for (const [id, m] of made) {
    if (id <= since || !wanted.has(kind(m.type))) continue;
    const r = m.resource as { hasRef?: () => boolean; _onTimeout?: unknown; _destroyed?: boolean };
    if (typeof r.hasRef === 'function' && !r.hasRef()) continue;
    if (m.type === 'Timeout' && (r._destroyed || r._onTimeout == null)) continue;
    lines.push(`    ${m.type} made at\n${m.stack.replace(/^/gm, '      ')}`);
  }
  return lines.join('\n');
}

async function runFile(file: string): Promise<void> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const before = resources();
  const since = lastId;
  let total = 0;
  let passed = 0;
  let skipped = 0;
  let failed = 0;
  let error = '';
  globalThis.UVU_DEFER = 1;
  globalThis.UVU_INDEX = 0;
  globalThis.UVU_QUEUE ??= [];
  globalThis.UVU_QUEUE.length = 0;
  globalThis.UVU_QUEUE.push([file]);
  process.stdout.write(`${file}\n`);
  try {
    await import(pathToFileURL(path.resolve(TEST_DIR, file)).href);
    // uvu's exec(), one file at a time: each queued suite runs its tests and prints its dots
    for (const group of globalThis.UVU_QUEUE) {
      for (const test of group) {
        if (typeof test === 'string') continue;
        const [errs, ran, skips, max] = await test();
        total += max;
        passed += ran;
        skipped += skips;
        if (errs.length) process.stdout.write(`\n${errs}\n`);
      }
    }
  } catch (e) {
    // the file could not be loaded (or a suite threw outside uvu's handling)
    error = e instanceof Error ? (e.stack ?? e.message) : String(e);
    process.stdout.write(`\n  FAIL  ${file} did not run: ${error}\n`);
    failed++;
  }
  failed += total - passed - skipped;
  const ms = performance.now() - t0;
  // a file's resources close asynchronously (a server's close, a child's exit): give them time
  let lingering = beyond(before, resources());
  const end = Date.now() + LINGER_MS;
  while (lingering.length > 0 && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 20).unref());
    lingering = beyond(before, resources());
  }
  if (lingering.length > 0 && made.size > 0)
    process.stdout.write(`\n  made by ${file} and still open:\n${traces(since, lingering)}\n`);
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(
    `\n${RESULT_MARK}${JSON.stringify({ file, total, passed, skipped, failed, ms, cpuMs: (cpu.user + cpu.system) / 1000, lingering })}\n`,
  );
}

// one file at a time, in the order they come
const lines = readline.createInterface({ input: process.stdin });
const queue: string[] = [];
let busy = false;
let closed = false;
async function next(): Promise<void> {
  if (busy) return;
  busy = true;
  while (queue.length > 0) await runFile(queue.shift()!);
  busy = false;
  // the runner closes stdin when there is nothing more: leave whatever a file left running behind
  if (closed) process.exit(0);
}
lines.on('line', (line) => {
  if (line.trim()) queue.push(line.trim());
  void next();
});
lines.on('close', () => {
  closed = true;
  void next();
});
