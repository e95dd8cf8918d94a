// Durability under SIGKILL: a child (test/fixtures/crash-writer.ts) writes with 8 concurrent
// writers and compacts all the time; it is killed at random moments and at every named point
// of the write paths (mid-append with a torn line, before datasync, mid-snapshot, between the
// manifest rename and the journal rewrite...). After each kill the store is reopened here and
// must hold exactly the writes issued up to some seq M (a prefix), with every acknowledged
// write at or below M. The store dir carries over from round to round.
// STORE_CRASH_ROUNDS raises the number of rounds (default 30: about 10 s on an idle 2-core machine).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../../src/store/store.ts';
import { ToyState, mulberry32, opsFor } from '../fixtures/toy-state.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WRITER = path.join(root, 'test/fixtures/crash-writer.ts');
const ROUNDS = Number(process.env.STORE_CRASH_ROUNDS ?? 30);

/** modes cycled through the rounds; `run` rounds are killed by the parent at a random moment */
const MODES = [
  'run',
  'torn:journal:write',
  'stop:journal:written',
  'run',
  'torn:snapshot:part-write',
  'stop:snapshot:part-written',
  'stop:snapshot:manifest',
  'stop:journal:copied',
  'stop:journal:renamed',
  'stop:journal:write',
];

interface RoundResult {
  acks: number[];
  ready: number;
  point: string | undefined;
}

function runChild(dir: string, ackFile: string, seed: number, mode: string, killAfterMs: number): Promise<RoundResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir, ackFile, String(seed), mode], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      // the kill clock starts once the store is open and writing
      if (!timer && out.includes('ready ')) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const guard = setTimeout(() => child.kill('SIGKILL'), 15000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(guard);
      if (signal !== 'SIGKILL')
        return reject(new Error(`~> child exited with ${code ?? signal} before being killed:\n${err}`));
      const ready = /ready (\d+)/.exec(out);
      if (!ready) return reject(new Error(`~> child died before opening the store:\n${err}`));
      const acks = fs.existsSync(ackFile)
        ? fs
            .readFileSync(ackFile, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => Number(l.split(' ')[1]))
        : [];
      resolve({ acks, ready: Number(ready[1]), point: /point (\S+)/.exec(out)?.[1] });
    });
  });
}

const Crash = suite('crash');

Crash('crash :: every acknowledged write survives SIGKILL at any point, nothing extra or reordered', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-crash-'));
  const rnd = mulberry32(Number(process.env.STORE_CRASH_SEED ?? 20240611));
  const expected = new ToyState(); // the canonical history: every write restored so far
  const pointsHit = new Set<string>();
  let totalAcks = 0;
  let compactedRounds = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const [kind, p1, p2] = MODES[round % MODES.length]!.split(':');
      const nth = 1 + Math.floor(rnd() * 3);
      const mode = kind === 'run' ? 'run' : `${kind}:${p1}:${p2}:${nth}`;
      const seed = Math.floor(rnd() * 2 ** 31);
      const ackFile = path.join(dir, `acks-${round}.txt`);
      // point modes normally kill themselves within milliseconds; the timer is a fallback
      const killAfter = kind === 'run' ? 20 + Math.floor(rnd() * 400) : 1500;
      const res = await runChild(path.join(dir, 'store'), ackFile, seed, mode, killAfter);
      if (res.point) pointsHit.add(`${kind}:${res.point}`);
      assert.is(
        res.ready,
        expected.lastSeq,
        `~> round ${round}: the child opened at seq ${res.ready}, expected ${expected.lastSeq}`,
      );

      const warnings: string[] = [];
      const restored = new ToyState();
      const store = await openStore(path.join(dir, 'store'), restored.hooks(warnings));
      try {
        const m = restored.lastSeq;
        assert.is(store.seq, m, `~> round ${round}: store.seq is the last restored seq`);
        assert.ok(m >= expected.lastSeq, `~> round ${round}: restored seq ${m} went back from ${expected.lastSeq}`);
        // what this round issued, up to what was restored
        for (let seq = expected.lastSeq + 1; seq <= m; seq++) expected.apply({ seq, ops: opsFor(seed, seq) });
        assert.ok(
          restored.equals(expected),
          `~> round ${round} (${mode}): restored state is not exactly the issued writes 1..${m}`,
        );
        for (const seq of res.acks) {
          assert.ok(seq <= m, `~> round ${round} (${mode}): acknowledged seq ${seq} lost (restored up to ${m})`);
        }
        totalAcks += res.acks.length;
        if (process.env.STORE_CRASH_VERBOSE) {
          console.log(
            `round ${round} ${mode}: opened at ${res.ready}, ${res.acks.length} acks (max ${Math.max(0, ...res.acks)}), restored ${m}; ${warnings.join(' | ')}`,
          );
        }
        if (fs.readdirSync(path.join(dir, 'store')).includes('snapshot.json')) compactedRounds++;
      } finally {
        await store.close();
      }
    }
    assert.ok(totalAcks > ROUNDS, `~> only ${totalAcks} writes were acknowledged over ${ROUNDS} rounds`);
    assert.ok(compactedRounds > 0, '~> no snapshot was ever written');
    if (ROUNDS >= MODES.length * 2) {
      for (const mode of MODES) {
        if (mode !== 'run') assert.ok(pointsHit.has(mode), `~> the crash point ${mode} was never reached`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

Crash.run();
