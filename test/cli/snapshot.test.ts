import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main.ts';
import { openCalendar } from '../../src/calendar.ts';
import { memoryIo } from './io.ts';

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ce-cli-snapshot-'));
}

const snap = suite('cli :: snapshot');

snap('compacts: the journal is emptied and the data survives', async () => {
  const dir = tmpDir();
  const cal = await openCalendar({ dir });
  const tag = await cal.tags.create({ name: 'Outdoor' });
  await cal.close();
  const journal = path.join(dir, 'journal.jsonl');
  assert.ok(fs.existsSync(journal) && fs.statSync(journal).size > 0, '~> the write is in the journal');

  const io = memoryIo({}, path.dirname(dir));
  assert.is(await main(['snapshot', '--data', dir], io), 0, io.err());
  assert.match(io.out(), /^compacted .* in \d+\.\d s\n$/);
  assert.ok(!fs.existsSync(journal) || fs.statSync(journal).size === 0, '~> journal empty after compaction');

  const again = await openCalendar({ dir });
  try {
    assert.is((await again.tags.get(tag.id as number)).name, 'Outdoor');
  } finally {
    await again.close();
  }
});

snap('a store held by a running server: clear message, exit 1', async () => {
  const dir = tmpDir();
  const server = await openCalendar({ dir });
  try {
    const io = memoryIo();
    assert.is(await main(['snapshot', '--data', dir], io), 1);
    assert.match(
      io.err(),
      new RegExp(
        `^calendar-engine snapshot: the store .* is in use by a running server \\(pid ${process.pid}\\); stop it first`,
      ),
    );
    const imp = memoryIo();
    fs.writeFileSync(path.join(dir, 'x.json'), '{"tags": []}');
    assert.is(await main(['import', path.join(dir, 'x.json'), '--data', dir], imp), 1);
    assert.match(imp.err(), /is in use by a running server/);
  } finally {
    await server.close();
  }
});

snap('no store there: exit 1', async () => {
  const io = memoryIo();
  assert.is(await main(['snapshot', '--data', path.join(tmpDir(), 'missing')], io), 1);
  assert.match(io.err(), /^calendar-engine snapshot: no store at /);
});

snap.run();
