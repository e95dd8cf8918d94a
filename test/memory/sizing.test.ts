// The memory a command needs and may take, from figures alone (src/memory/sizing.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BASE_BYTES,
  GIB,
  HEAP_BYTES_PER_EVENT,
  HEAP_SHARE,
  MIB,
  RESPAWN_AT,
  STORE_BYTES_PER_EVENT,
  SNAPSHOT_BYTES_PER_EVENT,
  allowedMemory,
  heapFlag,
  heapLimitMb,
  importNeed,
  parseCgroupLimit,
  parseSize,
  planMemory,
  storeEvents,
  storeNeed,
  type Need,
} from '../../src/memory/sizing.ts';

const sizing = suite('memory :: sizing');

sizing('the memory allowed is the smallest of the machine, the cgroup and the limit given', () => {
  assert.equal(allowedMemory({ totalBytes: 24 * GIB }), { bytes: 24 * GIB, from: "the machine's memory" });
  assert.equal(allowedMemory({ totalBytes: 24 * GIB, cgroupBytes: 4 * GIB }).bytes, 4 * GIB);
  assert.match(allowedMemory({ totalBytes: 24 * GIB, cgroupBytes: 4 * GIB }).from, /cgroup/);
  const limited = allowedMemory({
    totalBytes: 24 * GIB,
    cgroupBytes: 4 * GIB,
    limitBytes: GIB,
    limitFrom: 'CALENDAR_MEMORY_LIMIT',
  });
  assert.equal(limited, { bytes: GIB, from: 'CALENDAR_MEMORY_LIMIT' });
  // a limit above what the machine has does not raise it
  assert.is(allowedMemory({ totalBytes: 8 * GIB, limitBytes: 64 * GIB }).bytes, 8 * GIB);
});

sizing("a store's events: the header's count, else the snapshot's size", () => {
  assert.is(storeEvents({ events: 1234, snapshotBytes: 10 ** 9, journalBytes: 0 }), 1234);
  assert.is(storeEvents({ snapshotBytes: SNAPSHOT_BYTES_PER_EVENT * 1000, journalBytes: 0 }), 1000);
  assert.is(storeEvents({ snapshotBytes: 0, journalBytes: 0 }), 0);
});

sizing('a store needs its base, its events and its journal; an import adds its file', () => {
  const empty = storeNeed({ snapshotBytes: 0, journalBytes: 0 });
  assert.is(empty.totalBytes, BASE_BYTES);
  const million = storeNeed({ events: 1_000_000, snapshotBytes: 344 * MIB, journalBytes: 0 });
  assert.is(million.totalBytes, BASE_BYTES + 1_000_000 * STORE_BYTES_PER_EVENT);
  assert.is(million.heapBytes, BASE_BYTES + 1_000_000 * HEAP_BYTES_PER_EVENT);
  // a million events loaded and searched within a 160 MiB heap: the heap asked for is over twice that
  assert.ok(million.heapBytes > 2 * 160 * MIB && million.heapBytes < 400 * MIB);
  assert.ok(million.heapBytes < million.totalBytes);
  assert.match(million.what, /^1,000,000 events \(snapshot 344 MiB, journal 0 KiB\)$/);
  const journal = storeNeed({ events: 1_000_000, snapshotBytes: 344 * MIB, journalBytes: 100 * MIB });
  assert.is(journal.totalBytes - million.totalBytes, 200 * MIB);
  const imp = importNeed({ snapshotBytes: 0, journalBytes: 0 }, GIB);
  assert.ok(imp.totalBytes > GIB + BASE_BYTES && imp.heapBytes > GIB);
  assert.ok(imp.heapBytes < imp.totalBytes);
  assert.match(imp.what, /^a 1\.0 GiB file into a store of 0 events/);
});

sizing('the figure per event holds what was measured, with room, and no more than twice it', () => {
  // RSS measured at the peak of an open of 1,000,000 events (600 MiB), and of `serve` after a
  // search and the list mix: 647 bytes an event at 1,000,000, 421 at 10,000,000
  const measured = [
    { events: 1_000_000, rss: 600 * MIB },
    { events: 1_000_000, rss: 647 * 1_000_000 },
    { events: 10_000_000, rss: 421 * 10_000_000 },
  ];
  for (const m of measured) {
    const n = storeNeed({ events: m.events, snapshotBytes: 0, journalBytes: 0 }).totalBytes;
    assert.ok(n >= 1.2 * m.rss, `${m.events}: ${n} for ${m.rss} measured`);
    assert.ok(n <= 2 * m.rss, `${m.events}: ${n} for ${m.rss} measured`);
  }
  // ten million events open in 8 GiB, and are refused in 4 GiB before anything is read
  const tenMillion = storeNeed({ events: 10_000_000, snapshotBytes: 3.3 * GIB, journalBytes: 0 });
  const allowed = (bytes: number) =>
    planMemory({
      need: tenMillion,
      allowed: { bytes, from: '--memory-limit' },
      heapLimitBytes: 4 * GIB,
      heapLimitSet: false,
      command: 'serve',
    });
  assert.is.not(allowed(8 * GIB).action, 'refuse');
  const refused = allowed(4 * GIB);
  assert.is(refused.action, 'refuse');
  if (refused.action === 'refuse')
    assert.match(refused.message, /^not enough memory: serve of 10,000,000 events .* needs about 5\.8 GiB/);
});

const need = (totalBytes: number, heapBytes: number): Need => ({
  totalBytes,
  heapBytes,
  events: 10,
  what: '10 events',
});
const plan = (n: Need, allowed: number, heapLimitBytes: number, heapLimitSet = false) =>
  planMemory({
    need: n,
    allowed: { bytes: allowed, from: '--memory-limit' },
    heapLimitBytes,
    heapLimitSet,
    command: 'serve',
  });

sizing('refused before loading when the need passes the memory allowed, with both figures', () => {
  const p = plan(need(12 * GIB, 8 * GIB), 8 * GIB, 4 * GIB);
  assert.is(p.action, 'refuse');
  if (p.action !== 'refuse') return;
  assert.match(
    p.message,
    /^not enough memory: serve of 10 events needs about 12\.0 GiB, and 8\.0 GiB is allowed \(--memory-limit\)/,
  );
  assert.match(p.message, /CALENDAR_MEMORY_LIMIT/);
  assert.match(p.message, /nothing was loaded or changed$/);
});

sizing("runs as is while the heap it needs is under RESPAWN_AT of V8's limit", () => {
  assert.equal(plan(need(GIB, RESPAWN_AT * 4 * GIB - 1), 24 * GIB, 4 * GIB), { action: 'run' });
});

sizing('runs again with a heap sized from the memory allowed when the default is too small', () => {
  const p = plan(need(11 * GIB, 7 * GIB), 24 * GIB, 4 * GIB);
  assert.equal(p, { action: 'respawn', heapMb: heapLimitMb(24 * GIB) });
  assert.is(heapLimitMb(24 * GIB), Math.floor((24 * GIB * HEAP_SHARE) / MIB));
  // when the need's heap passes the share of what is allowed, the heap is the need's (with room), within what is allowed
  const tight = plan(need(9.9 * GIB, 9 * GIB), 10 * GIB, 4 * GIB);
  assert.is(tight.action, 'respawn');
  if (tight.action === 'respawn') assert.is(tight.heapMb, 10 * 1024);
});

sizing('a heap limit the user chose is kept, and a need above it refused naming the flag', () => {
  assert.equal(plan(need(3 * GIB, 2 * GIB), 24 * GIB, 3 * GIB, true), { action: 'run' });
  const p = plan(need(6 * GIB, 4 * GIB), 24 * GIB, 3 * GIB, true);
  assert.is(p.action, 'refuse');
  if (p.action === 'refuse') {
    assert.match(p.message, /needs about 4\.0 GiB of V8 heap, and its limit is 3\.0 GiB \(--max-old-space-size\)/);
    assert.match(p.message, /--max-old-space-size=5120 or more/);
  }
});

sizing('a default heap that cannot grow (little memory allowed): run when it holds the need, else refuse', () => {
  assert.equal(plan(need(1.5 * GIB, 1.5 * GIB), 2 * GIB, 2 * GIB), { action: 'run' });
  const p = plan(need(1.9 * GIB, 1.9 * GIB), 2 * GIB, 1.8 * GIB);
  assert.is(p.action, 'refuse');
});

sizing('sizes: binary units, bytes, and what is refused', () => {
  assert.is(parseSize('8G'), 8 * GIB);
  assert.is(parseSize('512M'), 512 * MIB);
  assert.is(parseSize('1.5GiB'), 1.5 * GIB);
  assert.is(parseSize('2gb'), 2 * GIB);
  assert.is(parseSize('1T'), 1024 * GIB);
  assert.is(parseSize(String(64 * MIB)), 64 * MIB);
  for (const bad of ['', 'lots', '8X', '-1G', '1M', 'G8']) assert.throws(() => parseSize(bad), /expected/, bad);
});

sizing("cgroup limits: v2 'max' and v1's huge number mean none", () => {
  assert.is(parseCgroupLimit('max\n'), undefined);
  assert.is(parseCgroupLimit('9223372036854771712\n'), undefined);
  assert.is(parseCgroupLimit('4294967296\n'), 4 * GIB);
  assert.is(parseCgroupLimit(undefined), undefined);
});

sizing('the heap limit a flag sets', () => {
  assert.is(heapFlag(['--max-old-space-size=8000']), 8000);
  assert.is(heapFlag(['--max_old_space_size', '300']), 300);
  assert.is(heapFlag(['--expose-gc', '--max-semi-space-size=64']), undefined);
  assert.is(heapFlag(['--max-old-space-size=100', '--max-old-space-size=200']), 200);
});

sizing.run();
