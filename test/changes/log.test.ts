// The change log on disk (src/changes/log.ts): lines read without parsing their changes agree with
// lines parsed whole, damaged lines are left out rather than read as changes, and a log that holds
// the writes the feed starts with is kept at the next open (cut after its last whole line,
// appended to) rather than written again.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCalendar } from '../../src/index.ts';
import type { Change } from '../../src/changes/change.ts';
import { holdChange, type HeldChange } from '../../src/changes/change.ts';
import { logLine, readChangeLogFile, readLine, type LoggedWrite } from '../../src/changes/log.ts';
import { NOW } from '../helpers/calendar.ts';

const log = suite('change log');

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ce-log-'));
const FILE = 'changes.jsonl';

/** the write as a line parses whole (what readChangeLogFile does without readLine) */
function parsed(line: string): LoggedWrite {
  const w = JSON.parse(line) as {
    seq: number;
    held: Array<{ change: Change; owner: number; before?: string; after?: string }>;
  };
  return { seq: w.seq, held: w.held.map((h) => holdChange(h.change, h.owner, h.before, h.after)) };
}

function change(seq: number, k: number, fields?: Change['fields']): Change {
  return {
    seq,
    time: new Date(Date.UTC(2030, 0, 1) + k * 1000).toISOString(),
    type: k % 2 ? 'event' : 'venue',
    action: 'updated',
    id: k,
    author: k % 3,
    ...(fields ? { fields } : {}),
  };
}

log(
  'readLine :: a one-change line read without parsing equals the line parsed whole; other lines are left to the parser',
  () => {
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const bits = [
      'a',
      'Café',
      '"',
      '\\',
      '\n',
      ',"owner":',
      '{"seq":',
      '}]}',
      '€',
      '\u{1F389}',
      '\ud800',
      ' ',
      '<p>',
      '\u2028',
    ];
    const text = () =>
      Array.from({ length: Math.floor(next() * 8) }, () => bits[Math.floor(next() * bits.length)]).join('');
    const statuses = [undefined, 'publish', 'draft', 'auto-draft', 'private'];
    let fast = 0;
    for (let i = 1; i <= 2000; i++) {
      const n = next() < 0.85 ? 1 : 2;
      const held: HeldChange[] = Array.from({ length: n }, (_, k) =>
        holdChange(
          change(i, i + k, next() < 0.8 ? { title: text(), description: text(), venue: [i] } : undefined),
          Math.floor(next() * 5),
          statuses[Math.floor(next() * statuses.length)],
          statuses[Math.floor(next() * statuses.length)],
        ),
      );
      const line = logLine(i, held);
      const buf = Buffer.from(line, 'utf8');
      const read = readLine(buf, 0, buf.length - 1);
      if (n === 2) assert.is(read, undefined, `two changes are parsed whole: ${line}`);
      if (read !== undefined) {
        fast++;
        assert.equal(read, parsed(line), line);
        assert.is(read.held[0].text, held[0].text);
      }
    }
    assert.ok(fast > 1500, `most one-change lines are read without parsing (${fast})`);
    // a change with a nested "owner" key after another: its text holds the sequence, so the line is
    // parsed whole (after a brace it is not the sequence looked for, and the line is read as it is)
    for (const [meta, reads] of [
      [{ a: 1, owner: 3 }, false],
      [{ owner: 3 }, true],
    ] as const) {
      const odd = logLine(7, [holdChange(change(7, 1, { meta } as Change['fields']), 1, 'publish', 'publish')]);
      const ob = Buffer.from(odd);
      assert.equal(readLine(ob, 0, ob.length - 1), reads ? parsed(odd) : undefined, odd);
    }
  },
);

log(
  'readChangeLogFile :: whole lines, a torn last line cut off, a damaged line before others makes the file be written again',
  () => {
    const dir = tmp();
    try {
      const lines = [1, 2, 3].map((seq) =>
        logLine(seq, [holdChange(change(seq, seq, { title: `T${seq}` }), 1, 'publish', 'publish')]),
      );
      const whole = lines.join('');
      const file = path.join(dir, FILE);

      fs.writeFileSync(file, whole);
      let r = readChangeLogFile(dir);
      assert.equal(
        r.writes,
        lines.map((l) => parsed(l)),
      );
      assert.equal(r.whole, { bytes: Buffer.byteLength(whole), lines: 3 });

      // a crash while appending: the last line is torn; it is left out and cut off
      fs.writeFileSync(file, whole + lines[0].replace('"seq":1', '"seq":4').slice(0, 40));
      r = readChangeLogFile(dir);
      assert.equal(
        r.writes.map((w) => w.seq),
        [1, 2, 3],
      );
      assert.equal(r.whole, { bytes: Buffer.byteLength(whole), lines: 3 });

      // an append that failed half-way and the next one ran on from it: that line is left out, not
      // read as a change, and the file is not kept as it is
      const four = lines[0].replaceAll('"seq":1', '"seq":4'),
        five = lines[0].replaceAll('"seq":1', '"seq":5');
      fs.writeFileSync(file, lines[0] + lines[1] + four.slice(0, 60) + lines[2] + five);
      r = readChangeLogFile(dir);
      assert.equal(
        r.writes.map((w) => w.seq),
        [1, 2, 5],
      );
      for (const w of r.writes) for (const h of w.held) JSON.parse(h.text);
      assert.is(r.whole, undefined);

      // the last line read whole but without its newline: an append would run on from it
      fs.writeFileSync(file, whole.slice(0, -1));
      r = readChangeLogFile(dir);
      assert.equal(
        r.writes.map((w) => w.seq),
        [1, 2, 3],
      );
      assert.is(r.whole, undefined);

      // out of order
      fs.writeFileSync(file, lines[1] + lines[0] + lines[2]);
      r = readChangeLogFile(dir);
      assert.equal(
        r.writes.map((w) => w.seq),
        [2, 3],
      );
      assert.is(r.whole, undefined);

      // lines cut short anywhere (a seq of many digits, a head that stops at the end of the file)
      // are left out without an error
      fs.writeFileSync(file, `${lines[0]}{"seq":${'9'.repeat(60)}}]}\n{"seq":12,"he}]}\n${lines[1]}{"seq":7`);
      r = readChangeLogFile(dir);
      assert.equal(
        r.writes.map((w) => w.seq),
        [1, 2],
      );

      fs.rmSync(file);
      assert.equal(readChangeLogFile(dir), { writes: [], whole: undefined });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);

log(
  "open: a log that holds the feed's writes is kept (same file, a torn tail cut off, the writes it lacked appended)",
  async () => {
    const dir = tmp();
    const file = path.join(dir, FILE);
    try {
      const a = await openCalendar({ dir, now: () => NOW });
      for (const name of ['one', 'two', 'three']) await a.tags.create({ name });
      await a.close();
      const ino = fs.statSync(file).ino;
      const before = fs.readFileSync(file, 'utf8');
      assert.is(before.split('\n').length, 4);

      // the last line lost (as if the process died before appending it), and a torn line after
      const lines = before.split('\n');
      fs.writeFileSync(file, `${lines[0]}\n${lines[1]}\n${lines[2].slice(0, 30)}`);
      const b = await openCalendar({ dir, now: () => NOW });
      assert.is(fs.statSync(file).ino, ino, 'the same file, not one written again');
      assert.is(
        fs.readFileSync(file, 'utf8'),
        before,
        'cut after its last whole line, the write it lacked appended from the journal',
      );
      await b.tags.create({ name: 'four' });
      await b.close();
      const r = readChangeLogFile(dir);
      assert.equal(
        r.writes.map((w) => w.seq),
        [1, 2, 3, 4],
      );
      assert.is(r.whole?.lines, 4);

      // a damaged line before others: the file is written again (a new one), without it
      const now = fs.readFileSync(file, 'utf8').split('\n');
      fs.writeFileSync(file, [now[0], 'not json', now[1], now[2], now[3], ''].join('\n'));
      const c = await openCalendar({ dir, now: () => NOW });
      const it = c.changes({ since: 0 })[Symbol.asyncIterator]();
      const seqs: number[] = [];
      for (let i = 0; i < 4; i++) seqs.push((await it.next()).value.seq);
      await it.return!();
      assert.equal(seqs, [1, 2, 3, 4]);
      await c.close();
      assert.is.not(fs.readFileSync(file, 'utf8').includes('not json'), true);
      assert.equal(
        readChangeLogFile(dir).writes.map((w) => w.seq),
        [1, 2, 3, 4],
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);

log.run();
