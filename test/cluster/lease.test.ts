// The writer lease (src/cluster/lease.ts) against an in-memory stand-in of the key-value bucket
// whose answers can be held back: a renewal or a takeover still on its way when the lease is
// released (a writer whose append was rejected rebuilds and releases it) must not leave the node
// holding a lease it no longer acts on, which no other node could take.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { KV } from '@nats-io/kv';
import { LEASE_KEY, Lease, type LeaseEvents } from '../../src/cluster/lease.ts';

/** One key's revisions, as JetStream KV keeps them; update/create apply at once, and their
 *  answers wait while `hold` is set (a reply still on its way when the caller moves on). */
class Bucket {
  seq = 0;
  entry: { revision: number; operation: 'PUT' | 'DEL'; value: string } | undefined;
  hold: Promise<void> | undefined;
  updates = 0;

  async get(key: string) {
    assert.is(key, LEASE_KEY);
    const e = this.entry;
    return e && { revision: e.revision, operation: e.operation, string: () => e.value };
  }

  async update(_key: string, value: string, last: number): Promise<number> {
    if (this.entry?.revision !== last) throw new Error('wrong last sequence');
    this.entry = { revision: ++this.seq, operation: 'PUT', value };
    this.updates++;
    const revision = this.seq;
    if (this.hold) await this.hold;
    return revision;
  }

  async create(_key: string, value: string): Promise<number> {
    if (this.entry?.operation === 'PUT') throw new Error('key exists');
    this.entry = { revision: ++this.seq, operation: 'PUT', value };
    const revision = this.seq;
    if (this.hold) await this.hold;
    return revision;
  }

  async delete(_key: string, opts: { previousSeq: number }): Promise<void> {
    if (this.entry?.revision !== opts.previousSeq) throw new Error('wrong last sequence');
    this.entry = { revision: ++this.seq, operation: 'DEL', value: '' };
  }

  holder(): string | undefined {
    return this.entry?.operation === 'PUT' ? (JSON.parse(this.entry.value) as { node: string }).node : undefined;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, ok: () => boolean, ms = 3_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

function events(): LeaseEvents & { acquired: () => void; count: number } {
  const ev = {
    count: 0,
    acquired() {
      ev.count++;
    },
    lost() {},
    holderChanged() {},
  };
  return ev;
}

const lease = suite('lease');

lease('a renewal answered after the lease was released gives the key up, and another node takes it', async () => {
  const bucket = new Bucket();
  const ea = events();
  const a = new Lease(bucket as unknown as KV, 'a', 300, ea, () => true);
  a.start();
  await until('a holds the lease', () => a.held && ea.count === 1);
  // the next renewal is applied by the bucket, its answer held back
  let answer!: () => void;
  bucket.hold = new Promise<void>((r) => (answer = r));
  const before = bucket.updates;
  await until('a renewal on its way', () => bucket.updates > before);
  await a.release('its append was rejected'); // its delete finds the key renewed: refused
  assert.is(bucket.holder(), 'a', 'the key still names a after the refused delete');
  bucket.hold = undefined;
  answer();
  await until('the key given up', () => bucket.holder() === undefined);
  assert.not.ok(a.held, 'a does not hold the lease again');
  const eb = events();
  const b = new Lease(bucket as unknown as KV, 'b', 300, eb, () => true);
  b.start();
  await until('b takes the lease', () => b.held && eb.count === 1);
  assert.is(bucket.holder(), 'b');
  await b.stop();
  await a.stop();
});

lease('a takeover answered after the node stopped standing gives the key up', async () => {
  const bucket = new Bucket();
  let standing = true;
  const ea = events();
  let answer!: () => void;
  bucket.hold = new Promise<void>((r) => (answer = r));
  const a = new Lease(bucket as unknown as KV, 'a', 300, ea, () => standing);
  a.start();
  await until('a takeover on its way', () => bucket.holder() === 'a');
  standing = false; // it started rebuilding its state meanwhile
  await a.release('rebuilding');
  bucket.hold = undefined;
  answer();
  await until('the key given up', () => bucket.holder() === undefined);
  await sleep(50);
  assert.is(ea.count, 0, 'never acted as the writer');
  assert.not.ok(a.held);
  await a.stop();
});

lease.run();
