// The reused buffers list bodies are written from: the bytes sent are the pieces', a buffer is
// taken again only after its response finished, and what does not fit is left to the text path.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ServerResponse } from 'node:http';
import { BodyBuffers } from '../../src/http/body-buffers.ts';

/** A response that keeps what end() was given and finishes when told to. */
function fakeResponse(): { res: ServerResponse; sent: Buffer[]; finish(): void } {
  const sent: Buffer[] = [];
  const pending: Array<() => void> = [];
  const res = {
    end(data: Buffer, cb: () => void) {
      sent.push(data);
      pending.push(cb);
    },
  } as unknown as ServerResponse;
  return {
    res,
    sent,
    finish: () => {
      for (const cb of pending.splice(0)) cb();
    },
  };
}

const S = suite('http :: body buffers');

S('the pieces are sent as one buffer; it is reused only once its response finished', () => {
  const bodies = new BodyBuffers(64, 4);
  const a = fakeResponse(),
    b = fakeResponse(),
    c = fakeResponse();
  assert.ok(bodies.end(a.res, ['{"events":[', '"x"', ']}'], 16));
  assert.is(a.sent[0].toString('latin1'), '{"events":["x"]}');
  // a's buffer is still the socket's: b gets another one, and a's bytes stay as they were
  assert.ok(bodies.end(b.res, ['{"venues":[]}'], 13));
  assert.is.not(b.sent[0].buffer, a.sent[0].buffer);
  assert.is(a.sent[0].toString('latin1'), '{"events":["x"]}');
  assert.is(bodies.kept, 0);
  a.finish();
  assert.is(bodies.kept, 1);
  assert.ok(bodies.end(c.res, ['{"organizers":[]}'], 17));
  assert.is(c.sent[0].buffer, a.sent[0].buffer, "the finished response's buffer is taken again");
  assert.is(c.sent[0].toString('latin1'), '{"organizers":[]}');
});

S('a body larger than a buffer, or not as long as said, is not sent (the caller writes it as text)', () => {
  const bodies = new BodyBuffers(8, 4);
  const a = fakeResponse();
  assert.not.ok(bodies.end(a.res, ['0123456789'], 10));
  assert.not.ok(bodies.end(a.res, ['0123', '45'], 7));
  assert.is(a.sent.length, 0);
});

S('at most `keep` free buffers are kept', () => {
  const bodies = new BodyBuffers(16, 2);
  const rs = [fakeResponse(), fakeResponse(), fakeResponse()];
  for (const r of rs) assert.ok(bodies.end(r.res, ['[]'], 2));
  for (const r of rs) r.finish();
  assert.is(bodies.kept, 2);
});

S.run();
