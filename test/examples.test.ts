// examples/embed.ts runs as written (package self-reference 'calendar-engine': the package's
// exports, the built dist/, made first when older than a source).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureDist } from './helpers/dist.ts';

const examples = suite('examples');
examples.before(() => ensureDist());

examples('embed.ts :: creates, lists and refuses an anonymous delete', () => {
  const file = fileURLToPath(new URL('../examples/embed.ts', import.meta.url));
  const out = execFileSync(process.execPath, ['--import', 'tsx', file], {
    encoding: 'utf8',
    env: { ...process.env, TZ: 'America/New_York', FORCE_COLOR: '0' },
  }); // no colours, however the suite is run
  const lines = out.trim().split('\n');
  assert.match(lines[0], /^\d+ \d{4}-\d\d-\d\d 19:00:00 \d{4}-\d\d-\d\d 1[78]:00:00 CES?T 15€$/);
  assert.is(lines[1], "1 1 [ 'Launch party' ]");
  assert.is(lines[2], '401 rest_forbidden');
});

examples.run();
