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

t('TitleIds gives the text store its own index of each title, equal hashes included', () => {
  const texts = new TextStore();
  const ids = new TitleIds(texts);
  const reference = new TextStore();
  for (let i = 0; i < 5000; i++) {
    const title = `Title ${i % 1300} ${i % 3 === 0 ? 'café' : 'hall'}`;
    const h = i % 4 === 0 ? 42 : slugHash(title);
    const id = ids.id(title, h);
    assert.is(id, reference.titleId(title), title);
    texts.set(i, title, 'd', 'e', `s-${i}`, null, id);
    assert.is(texts.title(i), title);
  }
});

t.run();
