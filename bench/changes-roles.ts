// The processes of bench:changes (bench/changes.ts) and what they do: the server, the followers,
// the webhook receiver (each a child process running this file, its role its first argument),
// and the writers (the bench's own process).

import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

/** this file: the children run it (their role is their first argument) */
const SELF = fileURLToPath(import.meta.url);
const NS = '/wp-json/tribe/events/v1';
const PASSWORD = 'bench bench bench bench';

export function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
}

// ---------------------------------------------------------------- the server (child)

export async function runServer(
  dir: string,
  hookUrl: string | undefined,
  hooks: number,
  hooksAtStart = true,
): Promise<void> {
  const { openCalendar } = await import('../src/calendar.ts');
  if (hookUrl && hooksAtStart) {
    const { addWebhook } = await import('../src/changes/webhook-registry.ts');
    for (let i = 0; i < hooks; i++) addWebhook(dir, `${hookUrl}/${i}`);
  }
  const { startServer } = await import('../src/http/server.ts');
  const cal = await openCalendar({ dir });
  cal.users.ensure('admin', 'administrator', PASSWORD);
  const srv = await startServer(cal, { port: 0, log: () => {} });
  process.send!({ url: srv.url });
  let cpu0 = process.cpuUsage(),
    cpu1: NodeJS.CpuUsage | undefined;
  process.on('message', async (m: unknown) => {
    if (m === 'mark') return void (cpu0 = process.cpuUsage()); // the measured part begins
    if (m === 'end') return void (cpu1 = process.cpuUsage(cpu0)); // and ends
    const cmd = (m as { cmd?: string; on?: boolean }).cmd;
    if (cmd === 'cpu') {
      // the CPU used so far (bench:changes --paired: per window)
      const c = process.cpuUsage();
      return void process.send!({ cpuTotalMs: (c.user + c.system) / 1000, cpuSystemMs: c.system / 1000 });
    }
    if (cmd === 'hooks') {
      // --paired: `hooks` webhooks registered (on) or none (off); the
      // dispatcher sees the registry within its reload period (1 s)
      const registry = await import('../src/changes/webhook-registry.ts');
      for (const h of registry.readWebhooks(dir)) registry.removeWebhook(dir, h.id);
      if ((m as { on: boolean }).on) for (let i = 0; i < hooks; i++) registry.addWebhook(dir, `${hookUrl}/${i}`);
      return void process.send!({ hooks: (m as { on: boolean }).on });
    }
    const c = cpu1 ?? process.cpuUsage(cpu0);
    process.send!({ cpuMs: (c.user + c.system) / 1000 });
    let step = 'the HTTP server';
    setTimeout(() => console.error(`bench:changes: the server's close is stuck in ${step}`), 10_000).unref();
    await srv.close();
    step = 'the calendar';
    await cal.close();
    process.exit(0);
  });
}

// ---------------------------------------------------------------- followers (child)

/** A Server-Sent Events stream of the changes from now on, on a connection of its own, asking
 *  for gzip as browsers do (`encoding` 'gzip') or for none. */
function openStream(
  url: string,
  encoding: string,
  onResponse: (res: http.IncomingMessage) => void,
): http.ClientRequest {
  const headers = {
    accept: 'text/event-stream',
    ...(encoding === 'gzip' ? { 'accept-encoding': 'gzip, deflate, br' } : {}),
  };
  return http.get(`${url}${NS}/changes`, { headers, agent: false }, onResponse);
}

export async function runFollowers(url: string, n: number, encoding: string): Promise<void> {
  /** tag id → first arrival (ms, wall clock) */
  const arrivals = new Map<number, number>();
  let events = 0;
  /** bytes each stream received (as sent: gzipped when it is) */
  const bytes = new Array<number>(n).fill(0);
  const reqs: http.ClientRequest[] = [];
  let open = 0;
  for (let i = 0; i < n; i++) {
    const req = openStream(url, encoding, (res) => {
      if (++open === n) process.send!({ ready: true });
      if ((res.headers['content-encoding'] ?? 'identity') !== encoding)
        throw new Error(`followers: asked for ${encoding}, sent ${res.headers['content-encoding']}`);
      // one follower reads the events (for the lag); the others only count the bytes (which must
      // come to as many as the first one's), so that the load generator's decoding and parsing do
      // not eat the cores the server needs (2 on the bench machine)
      if (i > 0) return void res.on('data', (chunk: Buffer) => (bytes[i] += chunk.length));
      res.on('data', (chunk: Buffer) => (bytes[0] += chunk.length));
      const body = encoding === 'gzip' ? res.pipe(zlib.createGunzip()) : res;
      const decoder = new StringDecoder('utf8');
      let buf = '';
      body.on('error', (err) => console.error(`followers: ${err.message}`));
      body.on('data', (chunk: Buffer) => {
        buf += decoder.write(chunk);
        let end;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!data) continue;
          events++;
          const now = performance.timeOrigin + performance.now();
          for (const c of JSON.parse(data) as Array<{ id: number }>) if (!arrivals.has(c.id)) arrivals.set(c.id, now);
        }
      });
    });
    req.on('error', () => {});
    reqs.push(req);
  }
  if (n === 0) process.send!({ ready: true });
  let cpu0 = process.cpuUsage();
  process.on('message', async (m: { cmd: string; ids?: number[] }) => {
    if (m.cmd === 'mark') return void (cpu0 = process.cpuUsage());
    const c = process.cpuUsage(cpu0);
    // the last events may still be on their way (streams are paced): wait (at most 10 s) until
    // the parsing follower has them all and the others as many bytes as it
    const until = Date.now() + 10_000;
    const complete = () => n === 0 || (m.ids!.every((id) => arrivals.has(id)) && bytes.every((b) => b === bytes[0]));
    while (!complete() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    for (const r of reqs) r.destroy();
    const short = bytes.filter((b, i) => i > 0 && b !== bytes[0]).length;
    process.send!({ arrivals: [...arrivals], events, short, bytes: bytes[0] ?? 0, cpuMs: (c.user + c.system) / 1000 });
    setTimeout(() => process.exit(0), 50);
  });
}

/**
 * Followers that come and go (bench:changes --paired): told `{cmd: 'open', n}`, it opens n streams
 * from the current head and answers `{opened: n}` once their headers came; `{cmd: 'close'}` ends
 * them and answers `{closed: true}`. They only count the bytes they receive: one process, started
 * once, so that the windows with followers do not also pay for starting one.
 */
export async function runToggledFollowers(url: string, encoding: string): Promise<void> {
  let reqs: http.ClientRequest[] = [];
  let bytes = 0;
  process.on('message', (m: { cmd: string; n?: number }) => {
    if (m.cmd === 'close') {
      for (const r of reqs) r.destroy();
      reqs = [];
      return void process.send!({ closed: true, bytes });
    }
    let open = 0;
    for (let i = 0; i < m.n!; i++) {
      const req = openStream(url, encoding, (res) => {
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        if (++open === m.n) process.send!({ opened: m.n });
      });
      req.on('error', () => {});
      reqs.push(req);
    }
  });
  process.send!({ ready: true });
}

// ---------------------------------------------------------------- webhook receiver (child)

// It counts the changes it receives without parsing the bodies (each change starts `{"seq":`), as
// the followers but one only take the bytes: on the 2 cores it shares with the server, parsing
// 10 copies of every change would take CPU a receiver on its own machine would not.
export async function runReceiver(): Promise<void> {
  let changes = 0;
  const mark = Buffer.from('{"seq":');
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      for (let i = body.indexOf(mark); i >= 0; i = body.indexOf(mark, i + mark.length)) changes++;
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1', () =>
    process.send!({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}` }),
  );
  let cpu0 = process.cpuUsage();
  process.on('message', async (m: { cmd: string; expect?: number }) => {
    if (m.cmd === 'mark') return void (cpu0 = process.cpuUsage());
    const c = process.cpuUsage(cpu0);
    // the last deliveries may still be on their way (webhooks linger): wait for them, at most 10 s
    const until = Date.now() + 10_000;
    while (changes < m.expect! && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    process.send!({ changes, cpuMs: (c.user + c.system) / 1000 });
    setTimeout(() => process.exit(0), 50);
  });
}

// ---------------------------------------------------------------- writers (this process)

export const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const auth = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
let tagNo = 0;

export function createTag(url: string): Promise<{ id: number; at: number }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ name: `bench tag ${process.pid}-${tagNo++}` });
    const req = http.request(
      `${url}${NS}/tags`,
      { method: 'POST', agent, headers: { authorization: auth, 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          const at = performance.timeOrigin + performance.now();
          if (res.statusCode !== 201) return reject(new Error(`create: ${res.statusCode} ${text.slice(0, 200)}`));
          resolve({ id: (JSON.parse(text) as { id: number }).id, at });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export function child(args: string[], profile?: string, cpu?: string): ChildProcess {
  const c = fork(SELF, args, {
    execArgv: ['--import', 'tsx', ...(profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : [])],
  });
  if (cpu !== undefined && c.pid !== undefined) pin(c.pid, cpu);
  return c;
}

/** --pin: the server on the first CPU, everything else (writers, followers, receiver) on the
 *  others, so that what the clients cost does not count against the server (as on a deployment
 *  where they are other machines) */
export const PIN = process.argv.includes('--pin');
export function pin(pid: number, cpus: string): void {
  if (os.cpus().length < 2) throw new Error('bench:changes --pin needs at least 2 CPUs');
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
  } catch (err) {
    throw new Error(`bench:changes --pin: taskset failed (${(err as Error).message}); it is in util-linux`);
  }
}
export const SERVER_CPU = '0',
  CLIENT_CPUS = `1-${Math.max(1, os.cpus().length - 1)}`;

export function message<T>(c: ChildProcess, pick: (m: Record<string, unknown>) => boolean): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      if (pick(m as Record<string, unknown>)) {
        c.off('message', on);
        resolve(m as T);
      }
    };
    c.on('message', on);
  });
}

/** The machine's busy CPU time so far, seconds (Linux /proc/stat: all but idle and iowait,
 *  steal included); undefined where there is no /proc/stat. */
export function machineBusy(): number | undefined {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
    return (total - f[3] - f[4]) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

// children are told apart by a first argument no option of the bench uses (`--followers` is one)
if (process.argv[2] === '--as-server')
  void runServer(
    process.argv[3],
    process.argv[4] || undefined,
    Number(process.argv[5] ?? 0),
    process.argv[6] !== 'off',
  );
else if (process.argv[2] === '--as-receiver') void runReceiver();
else if (process.argv[2] === '--as-toggled-followers') void runToggledFollowers(process.argv[3], process.argv[4]);
else if (process.argv[2] === '--as-followers')
  void runFollowers(process.argv[3], Number(process.argv[4]), process.argv[5]);
