// Ids are never reused, also after a crash (issue: durable store): a child makes writes whose
// records are then trashed or deleted for good, is SIGKILLed (no clean close, its lock left
// behind), and a reopened calendar must give new records higher ids than any acknowledged one.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCalendar } from '../src/calendar.ts';
import { rejects } from './helpers/calendar.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHILD = path.join(root, 'test/fixtures/calendar-crash-child.ts');

function runAndKill(dir: string, compact: boolean): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, compact ? 'compact' : ''], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ids: Record<string, number> = {};
    let out = '',
      err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      for (const line of lines) {
        const v = JSON.parse(line) as Record<string, number> | string;
        if (v === 'ready') child.kill('SIGKILL');
        else Object.assign(ids, v);
      }
    });
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve(ids) : reject(new Error(`child exited with ${code}: ${err}`)),
    );
  });
}

const Crash = suite('calendar :: ids after a crash');

for (const compact of [false, true]) {
  Crash(
    `ids of trashed and deleted records are not reused after SIGKILL (${compact ? 'snapshot' : 'journal only'})`,
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'calendar-crash-'));
      try {
        const acked = await runAndKill(dir, compact);
        assert.ok(acked.event > 0 && acked.venue > 0 && acked.category > 0, JSON.stringify(acked));
        assert.ok(fs.existsSync(path.join(dir, 'lock')), 'the killed child left its lock');
        const warnings: string[] = [];
        const warn = console.warn;
        console.warn = (m: unknown) => warnings.push(String(m));
        let cal;
        try {
          cal = await openCalendar({ dir });
        } finally {
          console.warn = warn;
        }
        assert.ok(
          warnings.some((w) => /stale/i.test(w)),
          `a stale-lock warning (got ${JSON.stringify(warnings)})`,
        );
        // the acknowledged writes are there: the event in the trash, the category gone for good
        await rejects(cal.events.get(acked.event), 'event-no-longer-available', 403);
        await rejects(cal.categories.get(acked.category), 'rest_invalid_param', 400);
        const ev = await cal.events.create({
          title: 'After the crash',
          start_date: '2026-03-06 09:00:00',
          end_date: '2026-03-06 10:00:00',
          venue: { venue: 'Other hall' },
        });
        const cat = await cal.categories.create({ name: 'After' });
        assert.ok(
          (ev.id as number) > Math.max(acked.event, acked.venue),
          `post id ${ev.id} > ${acked.event}, ${acked.venue}`,
        );
        assert.ok((ev.venue as { id: number }).id > Math.max(acked.event, acked.venue));
        assert.ok((cat.id as number) > acked.category, `term id ${cat.id} > deleted ${acked.category}`);
        await cal.close();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
}

Crash.run();
