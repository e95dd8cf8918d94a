// Series on a cluster: a series made through a follower, an exception and an exclusion: every
// node has the same occurrence rows with the same ids (they are the writer's ops).
// Skipped, with a printed reason, when nats-server is not installed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { handleOf, openCalendar, type Calendar } from '../../src/calendar.ts';
import { NATS_MISSING, natsServerPath, startNatsCluster, type NatsCluster } from '../helpers/nats-cluster.ts';

const test = suite('cluster :: recurring events');
const bin = natsServerPath();
let nats: NatsCluster | undefined;
const open: Calendar[] = [];

test.before(async () => {
  if (!bin) console.log(NATS_MISSING);
  else nats = await startNatsCluster(3, { bin });
});

test.after(async () => {
  for (const cal of open) await cal.close().catch(() => {});
  await nats?.stop();
});

async function node(id: string): Promise<Calendar> {
  const cal = await openCalendar({
    siteUrl: 'http://calendar.test',
    timezone: 'Europe/Paris',
    cluster: { servers: nats!.urls, name: 'recur', node: id, leaseMs: 1_000, warn: () => {} },
  });
  open.push(cal);
  return cal;
}

const rows = async (cal: Calendar) =>
  JSON.stringify((await cal.events.list({ start_date: '2027-01-01', end_date: '2027-12-31', per_page: 50 })).items);

test('series, exception and exclusion replicate with the same ids on every node', async () => {
  if (!nats) return;
  const a = await node('a');
  const b = await node('b');
  for (
    const until = Date.now() + 10_000;
    !handleOf(a).cluster!.isWriter && !handleOf(b).cluster!.isWriter && Date.now() < until;
  )
    await new Promise((r) => setTimeout(r, 20));
  const f = handleOf(a).cluster!.isWriter ? b : a,
    w = f === a ? b : a;
  const series = await f.events.create({
    title: 'Rehearsal',
    start_date: '2027-02-02 19:00:00',
    end_date: '2027-02-02 21:00:00',
    recurrence: 'RRULE:FREQ=WEEKLY;COUNT=8',
    status: 'publish',
  });
  const items = (await f.events.list({ start_date: '2027-01-01', per_page: 50 })).items;
  assert.is(items.length, 8);
  await f.events.update(items[2].id as number, { title: 'Dress rehearsal' });
  await f.events.delete(items[5].id as number);
  await w.waitForSeq(f.seq);
  assert.is(await rows(w), await rows(f));
  const onWriter = (await w.events.list({ start_date: '2027-01-01', per_page: 50, post_parent: series.id as number }))
    .items;
  assert.equal(
    onWriter.map((e) => e.title),
    ['Rehearsal', 'Dress rehearsal', 'Rehearsal', 'Rehearsal', 'Rehearsal', 'Rehearsal'],
  );
  assert.equal(((await w.events.get(series.id as number)).recurrence as Record<string, unknown>).exdates, [
    items[5].start_date,
  ]);
});

test.run();
