// The importing thread's typed lookups: the kinds of the ids an import brings (post-kinds.ts),
// the slugs it handed out (slugs.ts, kept as bytes) and the title dictionary's indexes found by
// hash (titles.ts), each against a plain Map or Set doing the same job.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PostKinds } from '../../src/import/post-kinds.ts';
import { SlugSet, slugHash } from '../../src/import/slugs.ts';
import { TitleIds } from '../../src/import/titles.ts';
import { TextStore } from '../../src/engine/text-store.ts';
import type { PostKind } from '../../src/engine/records.ts';

const t = suite('import :: typed lookups');

t('PostKinds answers as a Map for dense ids, ids far past them and ids given twice', () => {
  const kinds = new PostKinds();
  const want = new Map<number, PostKind>();
  const all: PostKind[] = ['event', 'venue', 'organizer', 'attachment'];
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < 20_000; i++) {
    // mostly dense ids, some far past them (kept in the Map), some again
    const id = i % 10 === 0 ? 2 ** 30 + rnd() : i % 7 === 0 ? (rnd() % 5000) + 1 : i + 1;
    const kind = all[rnd() % 4];
    kinds.set(id, kind);
    want.set(id, kind);
  }
  assert.is(kinds.size, want.size);
  for (const [id, kind] of want) assert.is(kinds.get(id), kind, `id ${id}`);
  for (const id of [0, 20_001 + 5, 2 ** 30 - 1, 2 ** 31 + 3]) {
    assert.is(kinds.get(id), want.get(id));
    assert.is(kinds.has(id), want.has(id));
  }
});

t('SlugSet keeps each slug once, with equal hashes for different slugs and text beyond ASCII', () => {
  const set = new SlugSet();
  const plain = new Set<string>();
  const words = ['fête', 'jazz', 'a-b', '東京', 'x', '', 'emoji-😀'];
  for (let i = 0; i < 30_000; i++) {
    const s = `${words[i % words.length]}-${i % 900}`; // each again every 6,300
    // every fiftieth slug given one hash for all: found by its text, not its hash
    const h = i % 50 === 0 ? slugHash('same') : slugHash(s);
    assert.is(set.add(s, h), !plain.has(s), s);
    plain.add(s);
    assert.ok(set.has(s, h));
  }
  assert.is(set.size, plain.size);
  assert.not.ok(set.has('jazz-900'));
});

t('SlugSet.addBytes is add() for the slug the bytes are, mixed with add(), equal hashes included', () => {
  const bytesSet = new SlugSet(),
    strings = new SlugSet();
  const words = ['jazz', 'a-b', 'x', 'open-mic', 'caf%c3%a9'];
  const src = Buffer.alloc(64);
  for (let i = 0; i < 30_000; i++) {
    const s = `${words[i % words.length]}-${i % 1100}`;
    const h = i % 50 === 0 ? slugHash('same') : slugHash(s);
    const want = strings.add(s, h);
    if (i % 7 === 3) {
      // a suffixed slug, given as a string (as uniqueSlug adds it)
      assert.is(bytesSet.add(s, h), want, s);
      continue;
    }
    const at = i % 13;
    src.write(s, at, 'latin1');
    assert.is(bytesSet.addBytes(src, at, at + s.length, h), want, s);
    assert.ok(bytesSet.has(s, h), s);
  }
  assert.is(bytesSet.size, strings.size);
  assert.not.ok(bytesSet.has('jazz-1100'));
});

t(
  'TitleIds gives the text store its own index of each title, from Latin-1 or UTF-16 bytes, equal hashes included',
  () => {
    const texts = new TextStore();
    const ids = new TitleIds(texts);
    const reference = new TextStore();
    const src = Buffer.alloc(256);
    for (let i = 0; i < 5000; i++) {
      const title = `Title ${i % 1300} ${i % 3 === 0 ? 'café' : i % 3 === 1 ? 'hall' : '\u6771\ud800'}`;
      const h = i % 4 === 0 ? 42 : slugHash(title);
      // a title of one-byte characters comes as Latin-1 bytes or (in a block with wider ones) UTF-16
      const wide = i % 3 === 2 || i % 5 === 0;
      const at = i % 11;
      const len = src.write(title, at, wide ? 'utf16le' : 'latin1');
      const id = ids.id(src, at, at + len, wide, h);
      assert.is(id, reference.titleId(title), title);
      texts.set(i, title, 'd', 'e', `s-${i}`, null, id);
      assert.is(texts.title(i), title);
    }
  },
);

t.run();
