// The real program, spawned: serve on a free port with the demo seed, a user added by a second
// process while it runs (seen without a restart), an authenticated write, SIGTERM → exit 0 with a
// snapshot holding that write.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCalendar } from '../../src/calendar.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin/calendar-engine.js');

function runOnce(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: root, env: { ...process.env, CALENDAR_DATA: '' } }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const e2e = suite('e2e :: cli');

e2e('serve --port 0: listening line, seeded demo, user add seen live, SIGTERM → snapshot, exit 0', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-e2e-cli-'));
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--data', dir, '--per-page', '5'], {
    cwd: root, env: { ...process.env, HOST: '', PORT: '', CALENDAR_DATA: '' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c));
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const t0 = Date.now();
    while (!stdout.includes('\n') && Date.now() - t0 < 15_000 && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
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
    assert.is((await fetch(`${api}/tags`, { method: 'POST', body: '{"name":"Live"}', headers: { 'content-type': 'application/json' } })).status, 401);
    const added = await runOnce(['user', 'add', 'alice', '--role', 'editor', '--data', dir]);
    assert.is(added.code, 0, added.stderr);
    const lines = added.stdout.trimEnd().split('\n');
    assert.match(lines[0], /^created user 1 \(alice, editor\)/);
    const auth = 'Basic ' + Buffer.from(`alice:${lines[lines.length - 1]}`).toString('base64');
    let created: Response | undefined;
    const t1 = Date.now();
    do {
      await new Promise((r) => setTimeout(r, 100));
      created = await fetch(`${api}/tags`, { method: 'POST', body: '{"name":"Live"}', headers: { 'content-type': 'application/json', authorization: auth } });
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

e2e.run();
