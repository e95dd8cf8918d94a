// The streamed reader of import files against JSON.parse of the whole file, at every chunk size
// (so that keys, strings, escapes, numbers and records span chunk boundaries), and its errors.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { detectFormat, readImportRecords } from '../../src/import/read-records.ts';
import { ImportFileError, type FileRecord } from '../../src/import/scanners.ts';

const reader = suite('read import records');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ce-read-'));
let n = 0;
const write = (text: string, ext = 'json') => {
  const file = path.join(dir, `f${n++}.${ext}`);
  fs.writeFileSync(file, text);
  return file;
};

async function all(file: string, chunk?: number, format?: 'json' | 'jsonl'): Promise<FileRecord[]> {
  const out: FileRecord[] = [];
  for await (const r of readImportRecords(file, format, undefined, chunk)) out.push(r);
  return out;
}

async function failure(file: string, chunk?: number): Promise<string> {
  try {
    await all(file, chunk);
  } catch (e) {
    assert.instance(e, ImportFileError);
    return (e as Error).message;
  }
  assert.unreachable(`${file} was read without an error`);
  return '';
}

const tricky = {
  meta: { note: 'skipped: {"events": [1]} ] }', nested: [[{}], { a: '\\"' }] },
  events: [
    {
      id: 1,
      title: 'Braces { } [ ] and "quotes" and \\ backslash',
      description: 'line\nbreak\ttab \u00e9 \u{1F600}',
      n: -1.5e3,
    },
    { id: 2, title: '', tags: [], empty: {} },
  ],
  base_date: '2030-01-01',
  venues: [{ id: 3, venue: 'Hall "A"', geo_lat: 0, geo_lng: null, ok: true }],
  count: 42,
  categories: [],
  tags: [{ id: 7, name: 'x' }],
};

reader(
  'the import shape, every chunk size from 1 byte: the records JSON.parse gives, with list, index and line',
  async () => {
    const text = '\uFEFF' + JSON.stringify(tricky, null, 2).replace(/\n/g, '\r\n');
    const file = write(text);
    const want = [
      ...tricky.events.map((rec, index) => ({ kind: 'events', rec, index })),
      ...tricky.venues.map((rec, index) => ({ kind: 'venues', rec, index })),
      ...tricky.tags.map((rec, index) => ({ kind: 'tags', rec, index })),
    ];
    const lines = text.split('\n');
    for (const chunk of [1, 2, 3, 5, 7, 13, 64, 1 << 20]) {
      const got = await all(file, chunk);
      assert.equal(
        got.map(({ kind, rec, index }) => ({ kind, rec, index })),
        want,
        `chunk ${chunk}`,
      );
      for (const r of got) assert.match(lines[r.line - 1], /^\s*\{/, `chunk ${chunk}: line ${r.line} starts a record`);
    }
  },
);

reader(
  'JSON Lines: "type" gives the list (and is removed), blank lines and CRLF are fine, any chunk size',
  async () => {
    const text =
      '{"type":"category","id":1,"name":"A"}\r\n\r\n{"type":"event","id":5,"title":"x\\ny"}\n{"type":"venue","id":6,"venue":"V"}';
    const file = write(text, 'jsonl');
    for (const chunk of [1, 4, 1 << 20]) {
      const got = await all(file, chunk);
      assert.equal(
        got,
        [
          { kind: 'categories', rec: { id: 1, name: 'A' }, index: 0, line: 1 },
          { kind: 'events', rec: { id: 5, title: 'x\ny' }, index: 0, line: 3 },
          { kind: 'venues', rec: { id: 6, venue: 'V' }, index: 0, line: 4 },
        ],
        `chunk ${chunk}`,
      );
    }
    const bad = write('{"type":"event","id":1}\n{"type":"party","id":2}\n', 'jsonl');
    assert.match(
      await failure(bad),
      /line 2: "type" must be one of category, tag, media, venue, organizer, event, got "party"/,
    );
    const broken = write('{"type":"event","id":1}\n{"type":"event",\n', 'jsonl');
    assert.match(await failure(broken), /line 2: the line is not valid JSON/);
  },
);

reader('the format: by extension, else by the first line', async () => {
  assert.is(detectFormat(write('{}', 'ndjson')), 'jsonl');
  assert.is(detectFormat(write('{"events": []}', 'json')), 'json');
  assert.is(
    detectFormat(write('{"type":"tag","id":1,"name":"a"}\n{"type":"tag","id":2,"name":"b"}\n', 'txt')),
    'jsonl',
  );
  assert.is(detectFormat(write('{\n"events": []}\n', 'txt')), 'json');
});

reader('a broken file is named at its line, whatever the chunk size', async () => {
  const cases: Array<[string, RegExp]> = [
    [
      '{"events": [\n{"id": 1},\n{"id": 2, "title": "x"\n',
      /line 3: the file ends before the import object does inside events\[1\] \(begun at line 3\)/,
    ],
    ['{"events": [\n{"id": 1},\n{"id": 2,, "title": "x"}]}', /line 3: events\[1\] is not valid JSON/],
    ['{"events": [{"id": 1}] "venues": []}', /expected ',' or '}' after a member/],
    ['{"events": [{"id": 1} {"id": 2}]}', /expected ',' or '\]' after events\[0\]/],
    ['{"events": [], "events": []}', /"events" appears twice/],
    ['{"venues": "none"}', /"venues" must be an array/],
    ['{"x": tru}', /the value of "x" is not valid JSON/],
  ];
  for (const [text, message] of cases) {
    for (const chunk of [1, 3, 1 << 20])
      assert.match(await failure(write(text), chunk), message, `${JSON.stringify(text)} chunk ${chunk}`);
  }
});

reader(
  'one record a line (the export layout, read without the byte scan) and lines that only look like records',
  async () => {
    const records = [
      { id: 1, title: 'a }, {"id": 9}', n: [1, { x: '}' }] },
      { id: 2, title: 'ends in a brace }' },
      { id: 3, title: 'caf\u00e9 \u{1F600} "q" \\' },
      { id: 4, nested: { deep: [{}] } },
    ];
    const one = (r: unknown) => JSON.stringify(r);
    const lines = [
      '{"categories": [], "events": [',
      `${one(records[0])},`,
      `${one(records[1])} ,`, // a space before the comma: the scanner's way
      `  ${one(records[2])},\r`,
      '{"id": 4, "nested": {', // a record over several lines whose lines end in braces
      '  "deep": [{}]}',
      '}',
      '], "venues": [' + one({ id: 5, venue: 'V' }) + ', ' + one({ id: 6, venue: 'W' }),
      ']}',
    ];
    const text = lines.join('\n');
    const file = write(text);
    const want = [
      ...records.map((rec, index) => ({ kind: 'events', rec, index })),
      { kind: 'venues', rec: { id: 5, venue: 'V' }, index: 0 },
      { kind: 'venues', rec: { id: 6, venue: 'W' }, index: 1 },
    ];
    for (const chunk of [1, 5, 64, 1 << 20]) {
      const got = await all(file, chunk);
      assert.equal(
        got.map(({ kind, rec, index }) => ({ kind, rec, index })),
        want,
        `chunk ${chunk}`,
      );
      assert.equal(
        got.map((r) => r.line),
        [2, 3, 4, 5, 8, 8],
        `chunk ${chunk}`,
      );
    }
    // a bad record on its own line is named at that line, as the scanner names it
    const bad = write(
      ['{"events": [', one(records[0]) + ',', '{"id": 2, "title": "x",},', one(records[1]), ']}'].join('\n'),
    );
    for (const chunk of [1, 1 << 20])
      assert.match(await failure(bad, chunk), /line 3: events\[1\] is not valid JSON/, `chunk ${chunk}`);
  },
);

reader('a large file streams: records spanning the 1 MiB reads come out whole', async () => {
  const big = 'x'.repeat(300_000);
  const events = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, title: `t${i}`, description: big + i }));
  const file = write(JSON.stringify({ events }));
  const got = await all(file);
  assert.is(got.length, 12);
  assert.equal(
    got.map((r) => r.rec),
    events,
  );
});

reader.run();
