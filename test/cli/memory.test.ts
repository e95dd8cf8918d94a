// Commands that load a store refuse, before loading anything, a store that cannot fit in the memory
// they may use (--memory-limit / CALENDAR_MEMORY_LIMIT simulating a small machine): exit code 3,
// one line with the figures and what to do, the store untouched.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.ts';
import { EXIT_MEMORY, largeImportFlags } from '../../src/cli/memory.ts';
import { storeFacts } from '../../src/memory/machine.ts';
import { MIB, importNeed, storeNeed } from '../../src/memory/sizing.ts';
import { memoryIo } from './io.ts';

const memory = suite('cli :: memory');
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function calendarFile(dir: string, n: number): string {
  const events = Array.from({ length: n }, (_, i) => ({
    id: 1000 + i,
    title: `Concert ${i}`,
    status: 'publish',
    start_date: '2030-01-01 10:00:00',
    end_date: '2030-01-01 11:00:00',
  }));
  const file = path.join(dir, 'calendar.json');
  fs.writeFileSync(file, JSON.stringify({ categories: [], tags: [], venues: [], organizers: [], events }));
  return file;
}

let base = '';
let store = '';
let file = '';
/** the store's files and their contents, to show that a refusal changed nothing */
const contents = () =>
  Object.fromEntries(
    fs
      .readdirSync(store)
      .map((f) => [f, fs.statSync(path.join(store, f)).isFile() ? fs.readFileSync(path.join(store, f), 'utf8') : '']),
  );

memory.before(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-memory-'));
  store = path.join(base, 'store');
  file = calendarFile(base, 200);
  const io = memoryIo({}, base);
  assert.is(await main(['import', file, '--data', store], io), 0, io.err());
});

memory('a store that needs more than CALENDAR_MEMORY_LIMIT is refused before it loads, exit 3', async () => {
  const need = storeNeed(storeFacts(store)).totalBytes;
  const before = contents();
  const limit = `${need - 1}`; // a byte short
  for (const command of [['serve', '--port', '0', '--no-seed'], ['snapshot'], ['export'], ['check'], ['repair']]) {
    const io = memoryIo({ CALENDAR_MEMORY_LIMIT: limit }, base);
    const code = await main([...command, '--data', store], io);
    assert.is(code, EXIT_MEMORY, `${command[0]}: ${io.err()}`);
    assert.is(code, 3);
    assert.is(io.out(), '');
    const line = `calendar-engine ${command[0]}: not enough memory: ${command[0]} of 200 events (snapshot `;
    assert.ok(io.err().startsWith(line), io.err());
    assert.match(
      io.err(),
      new RegExp(
        `needs about ${Math.round(need / MIB)} MiB, and ${Math.round((need - 1) / MIB)} MiB is allowed \\(CALENDAR_MEMORY_LIMIT\\)`,
      ),
    );
    assert.match(io.err(), /Run it where .* or more is available .*--memory-limit.*nothing was loaded or changed\n$/);
  }
  assert.equal(contents(), before, 'nothing written, no lock left');
});

memory('--memory-limit wins over the variable; with enough the command runs', async () => {
  const need = storeNeed(storeFacts(store)).totalBytes;
  let io = memoryIo({ CALENDAR_MEMORY_LIMIT: '64G' }, base);
  assert.is(await main(['check', '--data', store, '--memory-limit', `${need - 1}`], io), EXIT_MEMORY);
  assert.match(io.err(), /is allowed \(--memory-limit\)/);
  io = memoryIo({ CALENDAR_MEMORY_LIMIT: `${need - 1}` }, base);
  assert.is(await main(['check', `--memory-limit=${need}`, '--data', store], io), 0, io.err());
  assert.match(io.out(), /200 events/);
});

memory('an import that would not fit is refused and imports nothing', async () => {
  const empty = path.join(base, 'empty');
  const need = importNeed(storeFacts(empty), fs.statSync(file).size).totalBytes;
  const io = memoryIo({}, base);
  assert.is(await main(['import', file, '--data', empty, '--memory-limit', `${need - 1}`], io), EXIT_MEMORY);
  assert.match(
    io.err(),
    /^calendar-engine import: not enough memory: import of a \d+ KiB file into a store of 0 events/,
  );
  assert.not.ok(fs.existsSync(path.join(empty, 'snapshot.json')));
});

memory('a bad limit is a usage error naming where it came from', async () => {
  let io = memoryIo({ CALENDAR_MEMORY_LIMIT: 'lots' }, base);
  assert.is(await main(['check', '--data', store], io), 2);
  assert.match(io.err(), /^calendar-engine check: CALENDAR_MEMORY_LIMIT: expected a size such as 512M, 8G or 1\.5G/);
  io = memoryIo({}, base);
  assert.is(await main(['snapshot', '--data', store, '--memory-limit'], io), 2);
  assert.match(io.err(), /option '--memory-limit' needs a value/);
  // commands that load no store do not take it
  io = memoryIo({}, base);
  assert.is(await main(['user', 'list', '--data', store, '--memory-limit', '8G'], io), 2);
});

memory('the program itself: refused with exit 3 and one line, no V8 crash', () => {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'serve', '--data', store, '--port', '0'],
    {
      cwd: ROOT,
      env: { ...process.env, CALENDAR_MEMORY_LIMIT: '16M' },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  assert.is(r.status, 3, r.stderr);
  assert.is(r.stdout, '');
  assert.match(
    r.stderr,
    /^calendar-engine serve: not enough memory: serve of 200 events .* and 16 MiB is allowed \(CALENDAR_MEMORY_LIMIT\)/,
  );
  assert.is(r.stderr.trim().split('\n').length, 1);
});

memory.after(() => fs.rmSync(base, { recursive: true, force: true }));

memory('a large import gets its V8 flags: the young generation in NODE_OPTIONS, the old on the command line', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'large-import-'));
  const big = path.join(dir, 'big.json'),
    small = path.join(dir, 'small.json');
  fs.writeFileSync(big, '');
  fs.truncateSync(big, 128 * MIB); // sparse: no disk used
  fs.writeFileSync(small, '{}');
  const want = { env: ['--max-semi-space-size=64'], args: ['--initial-old-space-size=1024'] };
  assert.equal(largeImportFlags(['import', big], {}, dir), want);
  assert.equal(largeImportFlags(['import', '--data', 'store', 'big.json'], {}, dir), want);
  // a value of an option is not the file; a small file, another command, a missing file: none
  const none = { env: [], args: [] };
  assert.equal(largeImportFlags(['import', '--data', big, 'small.json'], {}, dir), none);
  assert.equal(largeImportFlags(['export', big], {}, dir), none);
  assert.equal(largeImportFlags(['import', 'missing.json'], {}, dir), none);
  // a flag already given is left out
  assert.equal(largeImportFlags(['import', big], { NODE_OPTIONS: '--max-semi-space-size=16' }, dir), {
    env: [],
    args: want.args,
  });
  fs.rmSync(dir, { recursive: true, force: true });
});

memory.run();
