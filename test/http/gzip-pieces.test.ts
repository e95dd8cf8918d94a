// Gzip streams made of pieces compressed once (src/http/gzip-pieces.ts): any sequence of pieces
// after the header, with the trailer of what was sent, is one valid gzip file.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import zlib from 'node:zlib';
import {
  GZIP_HEADER,
  GzipPiece,
  GzipState,
  acceptsGzip,
  crc32,
  crc32Bytes,
  crc32Combine,
  shiftOf,
} from '../../src/http/gzip-pieces.ts';

const G = suite('gzip pieces');

G(
  'CRC-32: the check value, the byte-at-a-time fallback and zlib agree; combining equals the CRC of the joined bytes',
  () => {
    assert.is(crc32Bytes(Buffer.from('123456789')), 0xcbf43926);
    const a = Buffer.from('é'.repeat(3000) + 'abc'),
      b = Buffer.from('xyz\n'.repeat(20_001)),
      empty = Buffer.alloc(0);
    for (const x of [a, b, empty]) assert.is(crc32Bytes(x), crc32(x));
    assert.is(crc32Combine(crc32(a), crc32(b), shiftOf(b.length)), crc32(Buffer.concat([a, b])));
    assert.is(crc32Combine(0, crc32(a), shiftOf(a.length)), crc32(a), 'after nothing');
    assert.is(crc32Combine(crc32(a), crc32(empty), shiftOf(0)), crc32(a), 'then nothing');
  },
);

G('pieces compressed on their own, in any order and number, make one gzip file whose trailer checks', () => {
  const texts = [
    ': opening\n\n',
    'id: 1\nevent: changes\ndata: [{"é":1}]\n\n'.repeat(500),
    '',
    ': heartbeat\n\n',
    'z'.repeat(200_000),
  ];
  const pieces = texts.map((t) => new GzipPiece(Buffer.from(t)));
  for (const order of [[0, 1, 2, 3, 4], [0, 4, 3, 1, 1, 3], [0]]) {
    const st = new GzipState();
    const file = Buffer.concat([GZIP_HEADER, ...order.map((i) => st.add(pieces[i])), st.trailer()]);
    assert.is(zlib.gunzipSync(file).toString(), order.map((i) => texts[i]).join(''), order.join(','));
  }
  // a shared piece is compressed: the repetitive batch is far smaller than its text
  assert.ok(pieces[1].deflated.length * 10 < Buffer.byteLength(texts[1]));
  // and each piece can be read as it arrives (ends on a sync flush), before the stream ends
  const st = new GzipState();
  const partial = zlib.inflateRawSync(Buffer.concat([st.add(pieces[0]), st.add(pieces[1])]), {
    finishFlush: zlib.constants.Z_SYNC_FLUSH,
  });
  assert.is(partial.toString(), texts[0] + texts[1]);
});

G('Accept-Encoding: gzip named with a q above 0', () => {
  for (const yes of ['gzip', 'gzip, deflate, br', 'br;q=1.0, GZIP;q=0.5', 'x-gzip', 'deflate, gzip;q=1'])
    assert.ok(acceptsGzip(yes), yes);
  for (const no of [undefined, '', 'identity', 'br, deflate', 'gzip;q=0', 'gzip; q=0.000', '*'])
    assert.not.ok(acceptsGzip(no), String(no));
  assert.ok(acceptsGzip(['br', 'gzip']));
});

G.run();
