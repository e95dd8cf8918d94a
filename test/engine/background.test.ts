// Work in slices between requests (src/engine/background.ts): each slice ends at its deadline, the
// next follows without waiting for a timer or for I/O, and a request that comes meanwhile is
// answered between two slices.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BUSY_GAP_MS,
  IDLE_SLICE_MS,
  QUIET_MS,
  SLICE_MS,
  inSlices,
  noteRequest,
  sliceDeadline,
  sliceGap,
} from '../../src/engine/background.ts';

const Background = suite('background slices');

/** Work of `slices` slices, each busy until its deadline; resolves with the slices' start times. */
function busyWork(slices: number, onSlice?: (k: number) => void): Promise<number[]> {
  const starts: number[] = [];
  return new Promise((resolve) => {
    inSlices((deadline) => {
      starts.push(performance.now());
      onSlice?.(starts.length);
      while (performance.now() < deadline) {}
      if (starts.length < slices) return false;
      resolve(starts);
      return true;
    });
  });
}

Background('slices follow one another with nothing else on the loop (no I/O, no timer due)', async () => {
  // the only thing that keeps the process up is a far timer: the poll would sleep until it
  const keep = setTimeout(() => undefined, 60_000);
  try {
    const t0 = performance.now();
    const starts = await busyWork(40);
    const took = performance.now() - t0;
    // 40 slices of SLICE_MS each, a millisecond at most between two: well under a second, not the
    // far timer's minute
    assert.ok(took < 40 * (SLICE_MS + 1) + 2_000, `${took.toFixed(0)} ms for 40 slices`);
    assert.is(starts.length, 40);
  } finally {
    clearTimeout(keep);
  }
});

Background('a request that comes during the slices is answered between two of them', async () => {
  const server = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  try {
    let slices = 0;
    const done = busyWork(400, (k) => (slices = k));
    const answered: number[] = [];
    for (let i = 0; i < 5; i++) {
      const before = slices;
      await new Promise<void>((resolve, reject) =>
        http
          .get(`http://127.0.0.1:${port}/`, (res) => {
            res.resume();
            res.on('end', resolve);
          })
          .on('error', reject),
      );
      answered.push(slices - before);
    }
    // each answered within a few slices (a connection and a request: a few turns of the loop),
    // long before the 400 slices are done
    assert.ok(
      answered.every((n) => n < 50),
      `slices run while each request waited: ${answered.join(', ')}`,
    );
    assert.ok(slices < 400, `the work was still going (${slices} slices) when the requests were answered`);
    await done;
  } finally {
    server.close();
  }
});

Background('jobs take turns, one slice at a time', async () => {
  const turns: string[] = [];
  const job = (name: string, slices: number) =>
    new Promise<void>((resolve) => {
      let n = 0;
      inSlices(() => {
        turns.push(name);
        if (++n < slices) return false;
        resolve();
        return true;
      });
    });
  await Promise.all([job('a', 4), job('b', 2), job('c', 3)]);
  assert.equal(turns.join(''), 'abcabcaca');
});

Background('after a request, slices stay short though the loop waited', async () => {
  // a wait of the loop for I/O longer than half a millisecond, with no request: a long slice
  await new Promise((r) => setTimeout(r, 5));
  let now = performance.now();
  assert.ok(sliceDeadline() - now >= IDLE_SLICE_MS - 0.01, 'nothing came: an idle slice');
  noteRequest();
  await new Promise((r) => setTimeout(r, 5));
  now = performance.now();
  assert.ok(sliceDeadline() - now <= SLICE_MS + 0.01, 'a request came in the last QUIET_MS: a short slice');
  await new Promise((r) => setTimeout(r, QUIET_MS + 5));
  now = performance.now();
  assert.ok(sliceDeadline() - now >= IDLE_SLICE_MS - 0.01, 'quiet again: an idle slice');
});

Background('while requests come, slices are spaced BUSY_GAP_MS apart', async () => {
  const starts: number[] = [];
  const ends: number[] = [];
  // the loop never waits (a ref'd immediate after another): without the gap, a slice would
  // follow the last one in the next turn
  let spinning = true;
  const spin = () => {
    if (spinning) setImmediate(spin);
  };
  spin();
  noteRequest();
  await new Promise<void>((resolve) => {
    inSlices(() => {
      starts.push(performance.now());
      noteRequest(); // requests keep coming
      ends.push(performance.now());
      if (starts.length < 12) return false;
      resolve();
      return true;
    });
  });
  spinning = false;
  // a timer of BUSY_GAP_MS (libuv's clock counts whole milliseconds, from the turn's start): the
  // median gap about that long, where slices with no gap follow within a few microseconds
  const gaps = starts
    .slice(1)
    .map((s, i) => s - ends[i])
    .sort((a, b) => a - b);
  const median = gaps[gaps.length >> 1];
  assert.ok(median >= BUSY_GAP_MS / 2, `gaps between slices: ${gaps.map((g) => g.toFixed(2)).join(', ')} ms`);
  // the gap is the runner's choice while a request was noted in the last QUIET_MS, none after
  const last = performance.now();
  noteRequest();
  assert.is(sliceGap(last + QUIET_MS / 2), BUSY_GAP_MS);
  assert.is(sliceGap(performance.now() + QUIET_MS + 1), 0);
});

Background.run();
