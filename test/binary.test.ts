// The single executable (npm run build:binary, scripts/build-binary.ts): built (or reused when
// newer than every source), copied ALONE into an empty folder and run there with no
// node_modules, no sources and no NODE_OPTIONS: --version, serve (demo calendar, Basic auth
// write, SIGTERM exit 0, restart finds the write), user add/list, snapshot, import; then uploads,
// refused alone and working once the image library built beside it (dist/node_modules) is copied.
// Skipped, with a printed reason, only when the build tooling is missing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { displayTitle } from '../src/api/wordpress/display.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BINARY = path.join(ROOT, 'dist/calendar-engine');
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const ADMIN_PASSWORD = 'binary-test-admin-pw';

/** Newest modification time among the files the binary is made of. */
function newestSource(): number {
  let newest = 0;
  const visit = (p: string): void => {
    const st = fs.statSync(p);
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name));
    else newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of [
    'src',
    'data/demo.json',
    'package.json',
    'scripts/build-binary.ts',
    'scripts/build.mjs',
    'tsconfig.build.json',
  ])
    visit(path.join(ROOT, p));
  // the image library copied beside it (node_modules/sharp) must be there too
  if (!fs.existsSync(path.join(path.dirname(BINARY), 'node_modules', 'sharp', 'package.json'))) return Infinity;
  return Math.max(newest, fs.statSync(process.execPath).mtimeMs);
}

function isFresh(): boolean {
  return fs.existsSync(BINARY) && fs.statSync(BINARY).mtimeMs > newestSource();
}

/** Why the binary cannot be built here, or null when it can. */
function missingTooling(): string | null {
  if (Number(process.versions.node.split('.')[0]) < 20)
    return `Node ${process.version} has no single executable applications (needs 20+)`;
  const require = createRequire(import.meta.url);
  for (const name of ['esbuild', 'postject']) {
    try {
      require.resolve(name);
    } catch {
      return `${name} is not installed (devDependency)`;
    }
  }
  if (!fs.readFileSync(process.execPath).includes(SEA_FUSE)) {
    return `${process.execPath} was built without single executable support (no SEA fuse)`;
  }
  return null;
}

/** The environment of a user's shell: no NODE_OPTIONS, none of our settings. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k === 'NODE_OPTIONS' || k.startsWith('CALENDAR_') || k === 'HOST' || k === 'PORT' || k.startsWith('npm_'))
      continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

const fresh = isFresh();
const missing = fresh ? null : missingTooling();

const bin = suite('binary :: single executable');

if (missing) {
  console.log(`\nbinary.test: SKIPPED, cannot build dist/calendar-engine: ${missing}\n`);
  bin.skip(`single executable (build tooling missing: ${missing})`, () => {});
} else {
  const children = new Set<ChildProcess>();
  let dir = '';
  let exe = '';

  /** Runs the copied binary to completion in its folder. */
  const run = (args: string[], env: Record<string, string> = {}) => {
    const r = spawnSync(exe, args, { cwd: dir, env: cleanEnv(env), encoding: 'utf8', timeout: 20_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr, error: r.error };
  };

  /** Starts `serve`, resolves with the URL of its listening line. */
  const serve = (
    args: string[],
  ): Promise<{ child: ChildProcess; base: string; out: () => string; err: () => string }> => {
    const child = spawn(exe, ['serve', ...args], {
      cwd: dir,
      env: cleanEnv({ CALENDAR_ADMIN_PASSWORD: ADMIN_PASSWORD }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let out = '';
    let err = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      out += s;
    });
    child.stderr!.setEncoding('utf8').on('data', (s: string) => {
      err += s;
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no listening line in 20 s; stdout: ${out} stderr: ${err}`)),
        20_000,
      );
      const check = (): void => {
        const m = /calendar-engine listening on (http:\/\/\S+)\n/.exec(out);
        if (!m) return;
        clearTimeout(timer);
        resolve({ child, base: m[1], out: () => out, err: () => err });
      };
      child.stdout!.on('data', check);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`serve exited (${code ?? signal}) before listening; stdout: ${out} stderr: ${err}`));
      });
      child.once('error', reject);
    });
  };

  const stop = (child: ChildProcess): Promise<number | string> =>
    new Promise((resolve, reject) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        resolve(child.exitCode ?? child.signalCode!);
        return;
      }
      const timer = setTimeout(() => reject(new Error('serve did not exit within 15 s of SIGTERM')), 15_000);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        resolve(code ?? signal!);
      });
      child.kill('SIGTERM');
    });

  const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

  bin.before(async () => {
    if (!fresh) {
      const { buildBinary } = await import('../scripts/build-binary.ts');
      await buildBinary({ out: BINARY });
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-binary-'));
    exe = path.join(dir, 'calendar-engine');
    fs.copyFileSync(BINARY, exe);
    fs.chmodSync(exe, 0o755);
  });

  /** SIGKILL whatever still runs, and wait until it is gone (its store lock dies with it). */
  const killAll = async (): Promise<void> => {
    await Promise.all(
      [...children].map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return undefined;
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        return gone;
      }),
    );
  };

  bin.after(async () => {
    await killAll();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  bin('one self-contained file: no better-sqlite3 and no bench code inside, alone in its folder', () => {
    assert.equal(fs.readdirSync(dir), ['calendar-engine']);
    const bytes = fs.readFileSync(exe);
    assert.ok(bytes.length > 10 * 1024 * 1024, `${bytes.length} bytes: not a node binary`);
    assert.ok(bytes.includes('calendar-engine listening on'), 'the CLI is embedded');
    assert.not.ok(bytes.includes('better-sqlite3'), 'better-sqlite3 must not be bundled');
    assert.not.ok(bytes.includes('zipfSampler'), 'bench code must not be bundled');
  });

  bin('--version prints the package version, and nothing else', () => {
    const r = run(['--version']);
    assert.is(r.error, undefined);
    assert.is(r.code, 0, r.stderr);
    assert.is(r.stdout, `${VERSION}\n`);
    assert.is(r.stderr, '');
    const help = run(['--help']);
    assert.is(help.code, 0);
    assert.match(help.stdout, /^Usage: calendar-engine <command>/);
    assert.is(help.stderr, '');
  });

  bin(
    'serve --port 0 --data ./store: demo calendar, Basic-auth write, SIGTERM exit 0, restart keeps the write',
    async () => {
      try {
        const first = await serve(['--port', '0', '--data', './store']);
        const base = first.base;
        assert.match(base, /^http:\/\/127\.0\.0\.1:\d+\/wp-json\/tribe\/events\/v1$/);
        assert.ok(fs.existsSync(path.join(dir, 'store')), 'the store is made relative to the working folder');

        const demo = JSON.parse(fs.readFileSync(path.join(ROOT, 'data/demo.json'), 'utf8')) as {
          events: { title: string }[];
        };
        // titles are served rendered (wptexturize: ' -> &#8217;), as WordPress shows them
        const demoTitles = new Set(demo.events.map((e) => displayTitle(e.title)));
        const listRes = await fetch(`${base}/events?per_page=50`);
        assert.is(listRes.status, 200);
        const list = (await listRes.json()) as { events: { title: string }[]; total: number };
        assert.ok(list.events.length > 0, 'the demo calendar is served');
        assert.ok(
          list.events.every((e) => demoTitles.has(e.title)),
          'the events are the demo calendar',
        );
        const everything = `${base}/events?per_page=1&start_date=2000-01-01&end_date=2100-12-31`;
        const total = ((await (await fetch(everything)).json()) as { total: number }).total;
        assert.ok(total >= list.total && total > 0, `total ${total}`);

        const fields = JSON.stringify({
          title: 'Binary launch party',
          start_date: '2031-05-02 18:00:00',
          end_date: '2031-05-02 21:00:00',
        });
        const anonymous = await fetch(`${base}/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: fields,
        });
        assert.is(anonymous.status, 401);
        await anonymous.arrayBuffer();
        const wrong = await fetch(`${base}/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: basic('admin', 'not-the-password') },
          body: fields,
        });
        assert.is(wrong.status, 401);
        await wrong.arrayBuffer();

        const created = await fetch(`${base}/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: basic('admin', ADMIN_PASSWORD) },
          body: fields,
        });
        const body = (await created.json()) as { id: number; title: string };
        assert.is(created.status, 201, JSON.stringify(body));
        assert.is(body.title, 'Binary launch party');

        assert.is(await stop(first.child), 0, first.err());
        assert.not.match(first.err(), /warning/i);
        assert.ok(fs.existsSync(path.join(dir, 'store/snapshot.json')), 'a snapshot is written on SIGTERM');

        // a user added by the command line while nothing runs, then the server started again
        const added = run(['user', 'add', 'ed', '--role', 'editor', '--data', './store']);
        assert.is(added.code, 0, added.stderr);
        const edPassword = added.stdout.trimEnd().split('\n').pop()!;
        assert.match(added.stdout, /^created user \d+ \(ed, editor\)/);
        const users = run(['user', 'list', '--data', './store']);
        assert.is(users.code, 0, users.stderr);
        assert.match(users.stdout, /\bed\b.*\beditor\b/);

        const second = await serve(['--port', '0', '--data', './store']);
        const again = await fetch(`${second.base}/events/${body.id}`);
        assert.is(again.status, 200);
        assert.is(((await again.json()) as { title: string }).title, 'Binary launch party');
        const totalAgain = ((await (await fetch(everything.replace(base, second.base))).json()) as { total: number })
          .total;
        assert.is(totalAgain, total + 1, 'not seeded twice, the write kept');
        const byEditor = await fetch(`${second.base}/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: basic('ed', edPassword) },
          body: JSON.stringify({
            title: 'Editor event',
            start_date: '2031-05-03 18:00:00',
            end_date: '2031-05-03 19:00:00',
          }),
        });
        assert.is(byEditor.status, 201, await byEditor.text());
        assert.is(await stop(second.child), 0, second.err());
      } finally {
        await killAll();
      }
    },
  );

  bin('snapshot and import run from the binary too', () => {
    const snap = run(['snapshot', '--data', './store']);
    assert.is(snap.code, 0, snap.stderr);
    assert.is(fs.statSync(path.join(dir, 'store/journal.jsonl')).size, 0, 'the journal is empty after a snapshot');

    fs.writeFileSync(
      path.join(dir, 'cal.json'),
      JSON.stringify({
        categories: [{ id: 3, name: 'Music', slug: 'music', description: '', parent: 0 }],
        tags: [],
        venues: [],
        organizers: [],
        events: [
          {
            id: 100,
            author: 1,
            status: 'publish',
            date: '2030-01-01 10:00:00',
            title: 'Imported gig',
            slug: 'imported-gig',
            description: '',
            excerpt: '',
            timezone: 'America/Chicago',
            all_day: false,
            start_date: '2030-02-01 20:00:00',
            end_date: '2030-02-01 22:00:00',
            cost: '',
            website: '',
            show_map: true,
            show_map_link: true,
            hide_from_listings: false,
            sticky: false,
            featured: false,
            ticketed: false,
            categories: [3],
            tags: [],
            venue: 0,
            organizer: [],
          },
        ],
      }),
    );
    const imported = run(['import', 'cal.json', '--data', './other']);
    assert.is(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /imported 1 events/);
    // the parallel import's worker threads run the worker bundled into the binary: a file of one
    // event a line, read by two workers (forced: the file is far below the size that gets them)
    const events = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({
        id: 1000 + i,
        author: 1,
        status: 'publish',
        date: '2030-01-01 10:00:00',
        title: `Caf\u00e9 gig ${i}`,
        description: '',
        excerpt: '',
        timezone: 'Europe/Paris',
        all_day: false,
        start_date: '2030-02-01 20:00:00',
        end_date: '2030-02-01 22:00:00',
        categories: [3],
      }),
    );
    fs.writeFileSync(
      path.join(dir, 'many.json'),
      `{"categories":[{"id":3,"name":"Music","slug":"music","description":"","parent":0}],\n"events":[\n${events.join(',\n')}\n]}\n`,
    );
    const parallel = run(['import', 'many.json', '--data', './parallel'], { CALENDAR_IMPORT_WORKERS: '2' });
    assert.is(parallel.code, 0, parallel.stderr);
    assert.match(parallel.stdout, /imported 300 events/);
    const bad = run(['import', 'missing.json', '--data', './other']);
    assert.is(bad.code, 1);
    assert.match(bad.stderr, /missing\.json/);
  });

  bin('uploads: refused (501) with the binary alone, working with node_modules/ (sharp) beside it', async () => {
    // a 200×200 JPEG made by the sharp of this checkout (the binary's own is not loaded here)
    const sharp = (await import('sharp')).default;
    const jpeg = await sharp({
      create: { width: 200, height: 200, channels: 3, background: { r: 10, g: 120, b: 200 } },
    })
      .jpeg()
      .toBuffer();
    const upload = (base: string, name: string) =>
      fetch(`${base.replace(/\/tribe\/events\/v1$/, '')}/wp/v2/media`, {
        method: 'POST',
        body: jpeg,
        headers: {
          authorization: basic('admin', ADMIN_PASSWORD),
          'content-type': 'image/jpeg',
          'content-disposition': `attachment; filename="${name}"`,
        },
      });
    const alone = await serve(['--port', '0', '--data', './media-store']);
    try {
      const r = await upload(alone.base, 'alone.jpg');
      assert.is(r.status, 501);
      assert.is(((await r.json()) as { code: string }).code, 'rest_upload_image_library_missing');
    } finally {
      assert.is(await stop(alone.child), 0);
    }
    fs.cpSync(path.join(path.dirname(BINARY), 'node_modules'), path.join(dir, 'node_modules'), { recursive: true });
    const beside = await serve(['--port', '0', '--data', './media-store']);
    try {
      const r = await upload(beside.base, 'beside.jpg');
      const m = (await r.json()) as { media_details: { sizes: { thumbnail: { source_url: string; width: number } } } };
      assert.is(r.status, 201, JSON.stringify(m));
      assert.is(m.media_details.sizes.thumbnail.width, 150);
      const thumb = await fetch(m.media_details.sizes.thumbnail.source_url);
      assert.is(thumb.status, 200);
      assert.is(thumb.headers.get('content-type'), 'image/jpeg');
      const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
      assert.equal([meta.width, meta.height], [150, 150]);
    } finally {
      assert.is(await stop(beside.child), 0);
    }
  });
}

bin.run();
