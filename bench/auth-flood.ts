// Anonymous reads while four clients flood wrong passwords: `calendar-engine serve` in its own
// process on the demo calendar, one keep-alive client reading GET /events back to back, and the
// same reads while four more keep-alive clients send wrong application passwords for 'admin'
// (a new one each time, so none is answered from a cache). Each server is measured quiet, then
// flooded, in the same run. Two servers: the failed-login limits off (every wrong password costs
// a hash), then the default limits (the flood is answered 429 after the first few).
//
// Target: the read p99 under the flood is within 2x the quiet p99.
//
//   npm run bench:auth-flood -- [--seconds S] [--flooders N] [--root DIR]
//     --root DIR   another checkout's serve (e.g. before a change); it is run with its own
//                  defaults only

import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { summarize } from './stats.ts';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PASSWORD = 'bench bench bench bench';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

function num(name: string, dflt: number): number {
  const v = arg(name) === undefined ? dflt : Number(arg(name));
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} expects a number above 0, got ${arg(name)}`);
  return v;
}

async function startServe(root: string, dir: string, flags: string[]): Promise<{ child: ChildProcess; url: string }> {
  const args = ['--import', 'tsx', path.join(root, 'src/cli/main.ts'), 'serve', '--port', '0', '--data', dir, ...flags];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, CALENDAR_ADMIN_PASSWORD: PASSWORD },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+?)\/wp-json/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return { child, url };
}

/** One GET or POST on a keep-alive agent; resolves with the status once the body is read. */
function call(agent: http.Agent, url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

interface Phase {
  p50: number;
  p99: number;
  reads: number;
  attempts: number;
  statuses: Record<string, number>;
}

/** Reads for `ms` (after 500 ms not counted), with `flooders` clients sending wrong passwords meanwhile. */
async function phase(url: string, ms: number, flooders: number): Promise<Phase> {
  const list = `${url}/wp-json/tribe/events/v1/events`;
  let stop = false;
  const statuses: Record<string, number> = {};
  let attempts = 0;
  const floods = Array.from({ length: flooders }, async (_, f) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; !stop; i++) {
      const auth = 'Basic ' + Buffer.from(`admin:wrong-${f}-${i}`).toString('base64');
      const status = await call(agent, list, { authorization: auth });
      statuses[status] = (statuses[status] ?? 0) + 1;
      attempts++;
    }
    agent.destroy();
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples: number[] = [];
  const t0 = performance.now();
  const warm = t0 + 500;
  while (performance.now() - t0 < ms + 500) {
    const s = performance.now();
    const status = await call(agent, list);
    if (status !== 200) throw new Error(`an anonymous read answered ${status}`);
    if (s >= warm) samples.push(performance.now() - s);
  }
  stop = true;
  await Promise.all(floods);
  agent.destroy();
  const t = summarize(samples);
  return { p50: t.median, p99: t.p99, reads: samples.length, attempts, statuses };
}

async function main(): Promise<void> {
  const seconds = num('seconds', 5);
  const flooders = Math.round(num('flooders', 4));
  const other = arg('root');
  const root = other === undefined ? HERE : path.resolve(other);
  const configs: Array<[string, string[]]> =
    other === undefined
      ? [
          ['limits off', ['--login-limit', '0', '--login-user-limit', '0']],
          ['default limits', []],
        ]
      : [[`${root} as is`, []]];
  console.log(
    `anonymous GET /events, ${seconds} s quiet then ${seconds} s with ${flooders} clients sending wrong passwords` +
      ` (node ${process.version}, ${os.cpus().length} CPUs)`,
  );
  for (const [name, flags] of configs) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-flood-'));
    const { child, url } = await startServe(root, dir, flags);
    try {
      const quiet = await phase(url, seconds * 1000, 0);
      const flood = await phase(url, seconds * 1000, flooders);
      const f = (x: number) => x.toFixed(2);
      console.log(`${name}:`);
      console.log(`  quiet    p50 ${f(quiet.p50)} ms  p99 ${f(quiet.p99)} ms  (${quiet.reads} reads)`);
      console.log(
        `  flooded  p50 ${f(flood.p50)} ms  p99 ${f(flood.p99)} ms  (${flood.reads} reads; ` +
          `${flood.attempts} wrong passwords, answered ${JSON.stringify(flood.statuses)})`,
      );
      console.log(`  p99 flooded/quiet ${(flood.p99 / quiet.p99).toFixed(2)}x (target <= 2x)`);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
