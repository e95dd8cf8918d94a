// The real program, spawned as the package's `bin` runs it (dist/cli/main.js under plain node):
// serve on a free port with the demo seed, a user added by a second process while it runs (seen
// without a restart), an authenticated write, SIGTERM → exit 0 with a snapshot holding that write;
// and the built program's import (workers included) against the sources' through tsx.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCalendar } from '../../src/calendar.ts';
import { DIST_MAIN, ensureDist } from '../helpers/dist.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = DIST_MAIN;
/** the command line from its sources, through tsx */
const source = ['--import', 'tsx', path.join(root, 'src/cli/main.ts')];

function runOnce(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: root, env: { ...process.env, CALENDAR_DATA: '' } },
      (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

const e2e = suite('e2e :: cli');

e2e.before(() => ensureDist());

e2e('serve --port 0: listening line, seeded demo, user add seen live, SIGTERM → snapshot, exit 0', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-e2e-cli-'));
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--data', dir, '--per-page', '5'], {
    cwd: root,
    env: { ...process.env, HOST: '', PORT: '', CALENDAR_DATA: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c));
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const t0 = Date.now();
    while (!stdout.includes('\n') && Date.now() - t0 < 15_000 && child.exitCode === null)
      await new Promise((r) => setTimeout(r, 20));
    const m = /^calendar-engine listening on (http:\/\/127\.0\.0\.1:(\d+))\/wp-json\/tribe\/events\/v1\n$/.exec(stdout);
    assert.ok(m, `~> listening line, got ${JSON.stringify(stdout)} / ${stderr}`);
    const api = `${m![1]}/wp-json/tribe/events/v1`;
    assert.is.not(m![2], '0');

    const list = await fetch(`${api}/events`);
    assert.is(list.status, 200);
    const body = (await list.json()) as { events: Array<{ url: string }>; total: number };
    assert.is(body.events.length, 5, '~> --per-page applies');
    assert.ok(body.total > 50, '~> the demo calendar was seeded');
    assert.ok(body.events[0].url.startsWith(`${m![1]}/`), '~> links use the actual port');

    // anonymous write → 401; a user added by another process works within a second
    assert.is(
      (
        await fetch(`${api}/tags`, {
          method: 'POST',
          body: '{"name":"Live"}',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
      401,
    );
    const added = await runOnce(['user', 'add', 'alice', '--role', 'editor', '--data', dir]);
    assert.is(added.code, 0, added.stderr);
    const lines = added.stdout.trimEnd().split('\n');
    assert.match(lines[0], /^created user 1 \(alice, editor\)/);
    const auth = 'Basic ' + Buffer.from(`alice:${lines[lines.length - 1]}`).toString('base64');
    let created: Response | undefined;
    const t1 = Date.now();
    do {
      await new Promise((r) => setTimeout(r, 100));
      created = await fetch(`${api}/tags`, {
        method: 'POST',
        body: '{"name":"Live"}',
        headers: { 'content-type': 'application/json', authorization: auth },
      });
    } while (created.status === 401 && Date.now() - t1 < 1500);
    assert.is(created.status, 201, `~> seen after ${Date.now() - t1} ms`);
    const tag = (await created.json()) as { id: number };

    // a snapshot cannot run while the server holds the store
    const snap = await runOnce(['snapshot', '--data', dir]);
    assert.is(snap.code, 1);
    assert.match(snap.stderr, /in use by a running server/);

    child.kill('SIGTERM');
    assert.is(await exited, 0, stderr);
    assert.not.match(stderr, /\n\s+at /);
    assert.ok(fs.existsSync(path.join(dir, 'snapshot.json')));
    const journal = path.join(dir, 'journal.jsonl');
    assert.ok(!fs.existsSync(journal) || fs.statSync(journal).size === 0, '~> the shutdown snapshot holds every write');
    const cal = await openCalendar({ dir });
    try {
      assert.is((await cal.tags.get(tag.id)).name, 'Live');
    } finally {
      await cal.close();
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

/** `node program ...args` with env added; its exit code and output */
function runWith(
  env: NodeJS.ProcessEnv,
  program: string[],
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...program, ...args],
      { cwd: root, env: { ...process.env, CALENDAR_DATA: '', ...env } },
      (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

e2e(
  'the built command line (dist/, plain node, worker threads included): the same import, calendar and errors as the sources through tsx',
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-e2e-bundle-'));
    const data = {
      categories: [{ id: 3, name: 'Music', slug: 'music', description: '', parent: 0 }],
      tags: [{ id: 9, name: 'Free', slug: 'free', description: '' }],
      venues: [
        {
          id: 20,
          author: 1,
          status: 'publish',
          date: '2030-01-01 10:00:00',
          venue: 'Hall',
          slug: 'hall',
          city: 'Springfield',
          country: 'United States',
        },
      ],
      organizers: [
        {
          id: 21,
          author: 1,
          status: 'publish',
          date: '2030-01-01 10:00:00',
          organizer: 'Club',
          slug: 'club',
          email: 'a@example.com',
        },
      ],
      events: Array.from({ length: 300 }, (_, i) => ({
        id: 100 + i,
        author: 1,
        status: i % 7 === 0 ? 'draft' : 'publish',
        date: '2030-01-01 10:00:00',
        title: `Gig ${i} naïve café`,
        slug: i % 3 ? `gig-${i % 50}` : '',
        description: `Night ${i} — “quoted”`,
        timezone: ['America/Chicago', 'Europe/Paris', ''][i % 3],
        all_day: i % 5 === 0,
        start_date: `2030-03-${String(1 + (i % 28)).padStart(2, '0')} 20:00:00`,
        end_date: `2030-03-${String(1 + (i % 28)).padStart(2, '0')} 22:30:00`,
        cost: i % 2 ? '10' : 'Free',
        website: i % 4 ? `https://example.com/e/${i}` : '',
        categories: [3],
        tags: i % 2 ? [9] : [],
        venue: 20,
        organizer: [21],
      })),
    };
    // one event a line, as export writes it: the workers (two, whatever the size) read them
    const write = (name: string, cal: typeof data) => {
      const lines = ['{'];
      for (const [k, list] of Object.entries(cal))
        lines.push(
          `"${k}":[`,
          (list as unknown[]).map((r) => JSON.stringify(r)).join(',\n'),
          k === 'events' ? ']' : '],',
        );
      lines.push('}');
      fs.writeFileSync(path.join(dir, name), lines.join('\n') + '\n');
      return path.join(dir, name);
    };
    const file = write('cal.json', data);
    const broken = structuredClone(data);
    broken.events[150].start_date = 'someday';
    const bad = write('bad.json', broken);
    const workers = { CALENDAR_IMPORT_WORKERS: '2' };
    const exportOf = async (store: string) => {
      const r = await runOnce(['export', '--data', store]);
      assert.is(r.code, 0, r.stderr);
      return r.stdout;
    };
    const built = await runWith(workers, [bin], ['import', file, '--data', path.join(dir, 'a')]);
    const plain = await runWith(workers, source, ['import', file, '--data', path.join(dir, 'b')]);
    assert.is(built.code, 0, built.stderr);
    assert.is(plain.code, 0, plain.stderr);
    assert.is(built.stdout.replace(/ into .*\n$/, ''), plain.stdout.replace(/ into .*\n$/, ''));
    assert.match(built.stdout, /^imported 300 events, 1 venues, 1 organizers, 1 categories, 1 tags into /);
    assert.is(await exportOf(path.join(dir, 'a')), await exportOf(path.join(dir, 'b')));
    const badBuilt = await runWith(workers, [bin], ['import', bad, '--data', path.join(dir, 'c')]);
    const badPlain = await runWith(workers, source, ['import', bad, '--data', path.join(dir, 'd')]);
    assert.is(badBuilt.code, 1);
    assert.is(badBuilt.stderr, badPlain.stderr);
    assert.match(
      badBuilt.stderr,
      /^calendar-engine import: events\[150\] \(id 250\) at line \d+: start_date is not a valid date/,
    );
    assert.is(badBuilt.stdout, '');
  },
);

e2e.run();
