// The data folder on a real small file system (tmpfs): filled under concurrent writers, then
// freed; and read-only at start. The server stays up, refuses writes with the documented error,
// serves reads, loses no acknowledged write (checked after a restart), and takes writes again by
// itself once there is space. Skipped, with the reason, where a tmpfs cannot be mounted.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { openCalendar, type Calendar } from '../../src/calendar.ts';
import { startServer } from '../../src/http/server.ts';
import { request, type Res } from '../http/request.ts';
import { fill, withTmpfs } from './mount.ts';

const Disk = suite('faults on a real disk');
const NOW = new Date('2030-01-15T12:00:00Z');
const NS = '/wp-json/tribe/events/v1';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function serve(cal: Calendar): Promise<{ url: string; close(): Promise<void> }> {
  const port = await freePort();
  const srv = await startServer(cal, { port, log: () => {} });
  return { url: `http://127.0.0.1:${port}`, close: () => srv.close() };
}

const quiet = <T>(fn: () => Promise<T>): Promise<T> => {
  // the store's warnings (which file failed, writes resume) go to the console: kept out of the output
  const { warn, error } = console;
  console.warn = console.error = () => {};
  return fn().finally(() => Object.assign(console, { warn, error }));
};

const event = (i: number) =>
  JSON.stringify({
    title: `Fault test ${i}`,
    start_date: '2030-02-01 10:00:00',
    end_date: '2030-02-01 11:00:00',
    status: 'publish',
    description: `<p>${'A long description that fills the disk. '.repeat(40)}</p>`,
  });

Disk(
  'a full disk under 8 writers: 507 storage_full, reads go on, nothing acknowledged lost, writes resume once space returns',
  async () => {
    (await withTmpfs(2048, (m) =>
      quiet(async () => {
        const dir = path.join(m.dir, 'store');
        const cal = await openCalendar({ dir, now: () => NOW, faultProbeMs: 100 });
        const { password } = cal.users.add('admin', 'administrator');
        const auth: [string, string] = ['admin', password];
        const srv = await serve(cal);
        const filler = fill(m, 96 * 1024);
        const acked: number[] = [];
        const refused: Res[] = [];
        let readsFailed = 0;
        let writing = true;
        const reader = (async () => {
          while (writing) {
            const r = await request(srv.url, `${NS}/events?per_page=5`);
            if (r.status !== 200) readsFailed++;
          }
        })();
        await Promise.all(
          Array.from({ length: 8 }, async (_, w) => {
            for (let i = 0; i < 40; i++) {
              const r = await request(srv.url, `${NS}/events`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: event(w * 100 + i),
                auth,
              });
              if (r.status === 201) acked.push(r.json.id);
              else refused.push(r);
            }
          }),
        );
        writing = false;
        await reader;
        assert.ok(acked.length > 0, 'some writes were acknowledged before the disk filled');
        assert.ok(refused.length > 0, 'the disk filled');
        for (const r of refused) {
          assert.is(r.status, 507, r.text);
          assert.is(r.json.code, 'storage_full');
          assert.is(r.json.data.status, 507);
          assert.is(r.json.data.cause, 'ENOSPC');
          assert.match(r.json.message, 'no space left');
          assert.is(r.headers['retry-after'], '5');
        }
        assert.is(readsFailed, 0, 'every read answered 200 meanwhile');
        const health = await request(srv.url, `${NS}/health`);
        assert.is(health.status, 200);
        assert.is(health.json.status, 'degraded');
        assert.is(health.json.fault.cause, 'ENOSPC');
        assert.ok(
          ['journal.jsonl', 'lock'].includes(health.json.fault.file) || health.json.fault.file.startsWith('snapshot'),
          health.json.fault.file,
        );
        // the refused writes are not in memory either (once the state is rebuilt from the disk)
        const total = async (c: Calendar) => (await c.events.list({ per_page: 1 })).total;
        for (let t = 0; t < 50 && (await total(cal)) !== acked.length; t++) await new Promise((r) => setTimeout(r, 50));
        assert.is(await total(cal), acked.length, 'exactly the acknowledged events');
        // space returns: the next write (or the timer's probe) finds it, without a restart
        fs.unlinkSync(filler);
        let after: Res | undefined;
        for (let t = 0; t < 40; t++) {
          after = await request(srv.url, `${NS}/events`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: event(9999),
            auth,
          });
          if (after.status === 201) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        assert.is(after!.status, 201, after!.text);
        acked.push(after!.json.id);
        assert.is((await request(srv.url, `${NS}/health`)).json.status, 'ok');
        await srv.close();
        await cal.close();
        // a restart: every acknowledged write, nothing else
        const again = await openCalendar({ dir, now: () => NOW });
        assert.is(await total(again), acked.length);
        for (const id of acked) assert.is((await again.events.get(id)).id, id);
        await again.close();
      }),
    )) || assert.ok(true);
  },
);

Disk(
  'a read-only file system at start: a plain start names the file and suggests --read-only; read-only serves reads and refuses writes',
  async () => {
    (await withTmpfs(1024, (m) =>
      quiet(async () => {
        const dir = path.join(m.dir, 'store');
        const cal = await openCalendar({ dir, now: () => NOW });
        const { password } = cal.users.add('admin', 'administrator');
        for (let i = 0; i < 3; i++) await cal.events.create(JSON.parse(event(i)));
        await cal.close();
        m.remount('ro');
        try {
          await openCalendar({ dir, now: () => NOW }).then(
            () => assert.unreachable('a writable start must fail'),
            (err: Error) => {
              assert.match(err.message, `writing ${path.join(dir, 'lock')}`);
              assert.match(err.message, 'EROFS');
              assert.match(err.message, '--read-only');
            },
          );
          const ro = await openCalendar({ dir, now: () => NOW, readOnly: true });
          const srv = await serve(ro);
          try {
            const list = await request(srv.url, `${NS}/events`);
            assert.is(list.status, 200);
            assert.is(list.json.total, 3);
            // users.json is read as it was: the administrator's write is refused with the read-only error
            const w = await request(srv.url, `${NS}/events`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: event(7),
              auth: ['admin', password],
            });
            assert.is(w.status, 503, w.text);
            assert.is(w.json.code, 'calendar_read_only');
            assert.is(w.json.data.status, 503);
            await ro.events.create(JSON.parse(event(8))).then(
              () => assert.unreachable('a read-only calendar must refuse writes'),
              (err: { status: number; code: string }) => {
                assert.is(err.status, 503);
                assert.is(err.code, 'calendar_read_only');
              },
            );
            // a user command on the read-only disk names the file it could not write
            assert.throws(
              () => ro.users.add('bob', 'editor'),
              (err: Error) =>
                err.message.includes(`writing ${path.join(dir, 'users.json')}`) && err.message.includes('EROFS'),
            );
            const health = await request(srv.url, `${NS}/health`);
            assert.is(health.json.status, 'read-only');
            assert.is(health.json.last_snapshot, null);
          } finally {
            await srv.close();
            await ro.close();
          }
        } finally {
          m.remount('rw');
        }
      }),
    )) || assert.ok(true);
  },
);

Disk('a full disk at start: the start names the file it could not write; --read-only serves it', async () => {
  (await withTmpfs(1024, (m) =>
    quiet(async () => {
      const dir = path.join(m.dir, 'store');
      const cal = await openCalendar({ dir, now: () => NOW });
      for (let i = 0; i < 3; i++) await cal.events.create(JSON.parse(event(i)));
      await cal.close();
      fill(m, 0);
      await openCalendar({ dir, now: () => NOW }).then(
        () => assert.unreachable('a start on a full disk that needs to write must fail'),
        (err: Error) => {
          assert.match(err.message, 'no space left on device (ENOSPC) writing ');
          assert.match(err.message, dir);
          assert.match(err.message, 'free some space, or serve it read-only (--read-only)');
        },
      );
      const ro = await openCalendar({ dir, now: () => NOW, readOnly: true });
      assert.is((await ro.events.list({ per_page: 1 })).total, 3);
      await ro.close();
    }),
  )) || assert.ok(true);
});

Disk.run();
