import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createProgress, renderBar } from '../../src/cli/progress.ts';

const progress = suite('cli :: progress');

progress('renderBar', () => {
  assert.is(renderBar(52000, 100000, 'events', 10), '[#####.....]  52% 52000/100000 events');
  assert.is(renderBar(0, 10, 'events', 4), '[....]   0% 0/10 events');
  assert.is(renderBar(10, 10, 'events', 4), '[####] 100% 10/10 events');
  assert.is(renderBar(0, 0, 'events', 4), '[####] 100% 0/0 events');
});

progress('on a terminal: one line redrawn with \\r, at most every 100 ms, cleared at the end', () => {
  let text = '';
  let t = 0;
  const p = createProgress({ write: (s: string) => (text += s), isTTY: true }, 'events', () => t);
  p.update(10, 100);
  t = 50;
  p.update(20, 100); // too soon: skipped
  t = 150;
  p.update(30, 100);
  t = 160;
  p.update(100, 100); // the last one always shows
  const frames = text.split('\r').filter(Boolean);
  assert.equal(
    frames.map((f) => /(\d+)\/100/.exec(f)?.[1]),
    ['10', '30', '100'],
  );
  assert.not.ok(text.includes('\n'));
  p.finish();
  assert.ok(text.endsWith('\r'), '~> the bar is wiped so the summary starts clean');
});

progress('elsewhere: nothing at all', () => {
  let text = '';
  const p = createProgress({ write: (s: string) => (text += s), isTTY: false }, 'events');
  p.update(50, 100);
  p.update(100, 100);
  p.finish();
  assert.is(text, '');
});

progress.run();
