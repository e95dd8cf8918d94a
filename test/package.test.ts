// The package as a user gets it: `npm pack` (of the built dist/, made first when older than a
// source), the tarball installed into an empty project under the system's temp folder, without
// tsx or any devDependency (its dependencies come from npm's cache), and used there with plain
// node: the README's embedding example as an ES module, a TypeScript consumer type-checked against
// the shipped .d.ts with moduleResolution node16 and bundler, `npx calendar-engine --help`, and
// `serve --port 0` answering a request and stopping on SIGTERM. The pack and install happen once, for
// every test; the example, the two type-checks, --help and serve then run side by side, each test
// awaiting its own.
// Skipped, with a printed reason, only when npm cannot install the tarball at all (no cache, no
// network).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDist, ROOT } from './helpers/dist.ts';

const pkg = suite('package :: npm pack, installed elsewhere, run with plain node');

/** npm on PATH as the tests' node runs it (npm_execpath when run by npm, else `npm`). */
function npm(args: string[], cwd: string, timeout = 180_000) {
  const execpath = process.env.npm_execpath;
  const [cmd, pre] = execpath && /\.[cm]?js$/.test(execpath) ? [process.execPath, [execpath]] : ['npm', []];
  return spawnSync(cmd, [...pre, ...args], { cwd, encoding: 'utf8', timeout, env: userEnv() });
}

/** A user's environment: none of the suite's node options (tsx) or npm settings of this run. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k === 'NODE_OPTIONS' || k.startsWith('npm_') || k.startsWith('CALENDAR_') || k === 'HOST' || k === 'PORT')
      continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

function run(
  file: string,
  args: string[],
  cwd: string,
  timeout = 60_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd, env: userEnv({ FORCE_COLOR: '0', NO_COLOR: '1' }), encoding: 'utf8', timeout },
      (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

let work = '';
let app = '';
type Ran = Promise<{ code: number; stdout: string; stderr: string }>;
let example: Ran;
const typeChecks: Record<string, Ran> = {};
let help: Ran;
let server: ReturnType<typeof startServe> | undefined;

/** `calendar-engine serve --port 0` on a new store in the app, its output collected. */
function startServe() {
  // the bin npx ran, started directly: npx does not pass SIGTERM on to it
  const store = path.join(app, 'store');
  const child = spawn(path.join(app, 'node_modules/.bin/calendar-engine'), ['serve', '--port', '0', '--data', store], {
    cwd: app,
    env: userEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started = { child, store, out: '', err: '', exited: Promise.resolve<number | null>(null) };
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    started.out += s;
  });
  child.stderr.setEncoding('utf8').on('data', (s: string) => {
    started.err += s;
  });
  started.exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return started;
}
let tarball = '';
let files: string[] = [];
let skipped = '';

pkg.before(() => {
  ensureDist();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-package-'));
  // the scripts ran: ensureDist() built dist/ (prepare would build it again)
  const packed = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT);
  assert.is(packed.status, 0, `npm pack: ${packed.stderr}`);
  const info = (JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[])[0];
  tarball = path.join(work, info.filename);
  files = info.files.map((f) => f.path);
  app = path.join(work, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(
    path.join(app, 'package.json'),
    JSON.stringify({ name: 'app', private: true, type: 'module' }, null, 2),
  );
  // from the cache alone first; then allowed to fetch what the cache lacks
  const common = [
    'install',
    tarball,
    '--omit=optional',
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
  ];
  let installed = npm([...common, '--offline'], app);
  if (installed.status !== 0) installed = npm([...common, '--prefer-offline'], app);
  if (installed.status !== 0) {
    skipped = `npm could not install the tarball (offline, then online): ${installed.stderr.trim().split('\n').slice(-3).join(' / ')}`;
    console.log(`\npackage.test: SKIPPED: ${skipped}\n`);
    return;
  }
  // the checks of the installed package are independent processes that mostly wait (on the disk,
  // on tsc): all started now, side by side; each test below awaits its own and asserts on it
  example = runExample();
  for (const resolution of ['node16', 'bundler'] as const) typeChecks[resolution] = typeCheck(resolution);
  help = run(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['--no-install', 'calendar-engine', '--help'], app);
  server = startServe();
});

pkg.after(() => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

pkg('the tarball holds the built package, its types, README, LICENSE and docs; no sources, tests or benchmarks', () => {
  for (const f of [
    'package.json',
    'README.md',
    'LICENSE',
    'dist/index.js',
    'dist/index.d.ts',
    'dist/index.js.map',
    'dist/cli/main.js',
    'dist/import/worker.js',
    'data/demo.json',
    'docs/embedding.md',
  ]) {
    assert.ok(files.includes(f), `${f} in the tarball`);
  }
  for (const f of files)
    assert.not.match(
      f,
      /^(src|test|bench|scripts|examples|bin)\/|^dist\/(calendar-engine|\.built)$|^tsconfig/,
      `${f} should not be in the tarball`,
    );
  assert.ok(
    fs.readFileSync(path.join(ROOT, 'dist/cli/main.js'), 'utf8').startsWith('#!/usr/bin/env node\n'),
    'the bin has a shebang',
  );
});

pkg('installed without tsx or any devDependency', () => {
  if (skipped) return console.log(`  (skipped: ${skipped})`);
  const modules = path.join(app, 'node_modules');
  assert.ok(fs.existsSync(path.join(modules, 'calendar-engine/dist/index.js')));
  for (const dev of ['tsx', 'esbuild', 'typescript', 'uvu'])
    assert.not.ok(fs.existsSync(path.join(modules, dev)), `${dev} was installed`);
});

/** The README's embedding example (its first ts block), saved as an ES module in the app and run. */
function readmeExample(): { block: string } {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  return { block: /```ts\n([\s\S]*?)```/.exec(readme)![1] };
}
function runExample(): Ran {
  fs.writeFileSync(path.join(app, 'example.mjs'), readmeExample().block);
  return run(process.execPath, ['example.mjs'], app);
}

pkg("the README's embedding example runs with plain node (ESM)", async () => {
  if (skipped) return console.log(`  (skipped: ${skipped})`);
  const expected = /\/\/ (1 \[ 'Launch party' \])/.exec(readmeExample().block)![1];
  const r = await example;
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout.trim(), expected);
});

/** A consumer of the types: real uses, and misuses each of which must be a type error. */
const CONSUMER = `import { openCalendar, CalendarError, type Calendar } from 'calendar-engine';

const cal: Calendar = await openCalendar({ timezone: 'UTC', perPage: 5, now: () => new Date('2030-01-01T00:00:00Z') });
const ev = await cal.events.create({ title: 'Launch', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' });
const page = await cal.events.list({ start_date: '2030-01-01', per_page: 20 }, null);
const total: number = page.total;
const pages: number = page.totalPages;
console.log(ev.id, total, pages, page.items.length);
try {
  await cal.tags.get(999);
} catch (e) {
  if (e instanceof CalendarError) {
    const status: number = e.status;
    const code: string = e.code;
    console.log(status, code);
  }
}
// @ts-expect-error: perPage is a number
await openCalendar({ perPage: 'twelve' });
// @ts-expect-error: there is no such resource
cal.posts.list({});
// @ts-expect-error: the list's total is a number
const wrong: string = page.total;
console.log(wrong);
await cal.close();
`;

/** tsc over CONSUMER in a folder of the app, with `moduleResolution` `resolution`. */
function typeCheck(resolution: 'node16' | 'bundler'): Ran {
  const module = resolution === 'node16' ? 'node16' : 'esnext';
  const dir = path.join(app, `ts-${resolution}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'consumer.ts'), CONSUMER);
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          // the declarations themselves checked once (node16), to keep the time down
          target: 'ES2022',
          module,
          moduleResolution: resolution,
          strict: true,
          noEmit: true,
          skipLibCheck: resolution !== 'node16',
          lib: ['ES2022'],
          types: ['node'],
          typeRoots: [path.join(ROOT, 'node_modules/@types')],
        },
        files: ['consumer.ts'],
      },
      null,
      2,
    ),
  );
  // the repository's TypeScript and Node types: the scratch project has neither
  return run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], app, 180_000);
}

for (const resolution of ['node16', 'bundler'] as const) {
  pkg(`a TypeScript consumer type-checks against the shipped .d.ts (moduleResolution ${resolution})`, async () => {
    if (skipped) return console.log(`  (skipped: ${skipped})`);
    const tsc = await typeChecks[resolution];
    assert.is(tsc.code, 0, `tsc (${resolution}):\n${tsc.stdout}${tsc.stderr}`);
  });
}

pkg('npx calendar-engine --help, and serve --port 0 answers a request', async () => {
  if (skipped) return console.log(`  (skipped: ${skipped})`);
  const helped = await help;
  assert.is(helped.code, 0, helped.stderr);
  assert.match(helped.stdout, /^Usage: calendar-engine <command> \[options\]/);
  assert.match(helped.stdout, /serve \[options\]/);

  const { child, store, exited } = server!;
  const out = () => server!.out;
  const err = () => server!.err;
  try {
    const t0 = Date.now();
    while (!out().includes('\n') && child.exitCode === null && Date.now() - t0 < 30_000)
      await new Promise((r) => setTimeout(r, 20));
    const m = /^calendar-engine listening on (http:\/\/127\.0\.0\.1:\d+\/wp-json\/tribe\/events\/v1)\n/.exec(out());
    assert.ok(m, `listening line: ${JSON.stringify(out())} ${err()}`);
    const res = await fetch(`${m![1]}/events?per_page=2`);
    assert.is(res.status, 200);
    const body = (await res.json()) as { events: unknown[]; total: number };
    assert.is(body.events.length, 2);
    assert.ok(body.total > 2, 'the demo calendar (data/demo.json, shipped) was seeded');
    child.kill('SIGTERM');
    assert.is(await exited, 0, err());
    assert.ok(fs.existsSync(path.join(store, 'snapshot.json')), 'a snapshot on shutdown');
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

pkg.run();
