// Structural checks of the engine's indexes against its columns, shared by the engine tests
// (not a test file itself): the main index's inline end/combination columns, the end-sorted
// segments of its block stats, and every posting list's combination bytes, multi sublist and
// pair lists (rows carrying both ids, exactly).
import * as assert from 'uvu/assert';
import { COMBOS, SUPER_SHIFT, comboOf } from '../../src/engine/block-stats.ts';
import type { Engine } from '../../src/engine/engine.ts';
import type { PostingList } from '../../src/engine/posting-list.ts';
import type { Postings } from '../../src/engine/state.ts';

function distinct(ids: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < ids.length; i++) if (!out.includes(ids[i])) out.push(ids[i]);
  return out;
}

export function checkIndexes(engine: Engine, label: string): void {
  const st = engine.state;
  const { main, table: t, blocks } = st;
  const combo = (row: number) => comboOf(t.statusCodes[row], t.flags[row]);
  assert.is(main.count, t.count, `${label}: main index holds every row`);
  for (let i = 0; i < main.count; i++) {
    const row = main.rows[i];
    if (
      main.keys[i] !== t.starts[row] ||
      main.ties[i] !== t.ids[row] ||
      main.ends[i] !== t.ends[row] ||
      main.combos[i] !== combo(row)
    ) {
      assert.unreachable(
        `${label}: main index entry ${i} (row ${row}): expected (${t.starts[row]}, ${t.ids[row]}, end ${t.ends[row]}, combo ${combo(row)}), got (${main.keys[i]}, ${main.ties[i]}, end ${main.ends[i]}, combo ${main.combos[i]})`,
      );
    }
  }
  if (!blocks.dirty) {
    // superblocks: summed counters, zone maps bounding their blocks'
    const want = new Int32Array(blocks.superCounts.length);
    for (let b = 0; b < blocks.blocks; b++) {
      const sb = b >> SUPER_SHIFT;
      for (let c = 0; c < COMBOS; c++) want[sb * COMBOS + c] += blocks.counts[b * COMBOS + c];
      for (let i = blocks.bounds[b]; i < blocks.bounds[b + 1]; i++) {
        const e = t.ends[main.rows[i]];
        if (!(blocks.superMinEnds[sb] <= e && e <= blocks.superMaxEnds[sb]))
          assert.unreachable(`${label}: superblock ${sb} zone map misses end ${e}`);
      }
    }
    assert.equal(
      Array.from(blocks.superCounts),
      Array.from(want),
      `${label}: superblock counters = sums of their blocks'`,
    );
    for (let b = 0; b < blocks.blocks; b++) {
      const from = blocks.bounds[b],
        to = blocks.bounds[b + 1];
      const want: string[] = [],
        got: string[] = [];
      for (let i = from; i < to; i++) want.push(`${t.ends[main.rows[i]]}/${combo(main.rows[i])}`);
      for (let i = from; i < to; i++) {
        const q = blocks.segBase(b) + i - from;
        got.push(`${blocks.segEnds[q]}/${blocks.segCombos[q]}`);
        if (i > from && blocks.segEnds[q] < blocks.segEnds[q - 1])
          assert.unreachable(`${label}: segment of block ${b} not sorted by end at ${i}`);
      }
      assert.equal(got.sort(), want.sort(), `${label}: segment of block ${b} = its rows' (end, combo)`);
    }
  }

  const checkList = (list: PostingList, want: number[], what: string) => {
    const got = Array.from(list.rows.subarray(0, list.count));
    assert.equal(got, want, `${label}: ${what} rows`);
    for (let i = 0; i < list.count; i++) {
      if (list.combos[i] !== combo(list.rows[i]))
        assert.unreachable(
          `${label}: ${what}: combo of row ${list.rows[i]} is ${list.combos[i]}, expected ${combo(list.rows[i])}`,
        );
    }
  };
  const kinds: [string, Postings, (row: number) => ArrayLike<number>][] = [
    ['category', st.categoryPostings, (row) => t.categoryIds.get(row)],
    ['tag', st.tagPostings, (row) => t.tagIds.get(row)],
    ['venue', st.venuePostings, (row) => t.venueList(row)],
    ['organizer', st.organizerPostings, (row) => t.organizerIds.get(row)],
  ];
  for (const [kind, postings, idsOf] of kinds) {
    const lists = new Map<number, number[]>(),
      pairs = new Map<string, number[]>();
    for (let i = 0; i < main.count; i++) {
      const row = main.rows[i];
      const ids = distinct(idsOf(row));
      for (const id of ids) {
        if (!lists.has(id)) lists.set(id, []);
        lists.get(id)!.push(row);
      }
      for (let a = 0; a < ids.length; a++) {
        for (let b = a + 1; b < ids.length; b++) {
          const key = `${Math.min(ids[a], ids[b])}+${Math.max(ids[a], ids[b])}`;
          if (!pairs.has(key)) pairs.set(key, []);
          pairs.get(key)!.push(row);
        }
      }
    }
    for (const [id, list] of postings.entries()) {
      checkList(list, lists.get(id) ?? [], `${kind} ${id}`);
      if (list.multi) {
        for (let i = 0; i < list.multi.count; i++) {
          if (list.multi.combos[i] !== combo(list.multi.rows[i]))
            assert.unreachable(`${label}: ${kind} ${id} multi: stale combo of row ${list.multi.rows[i]}`);
        }
      }
      for (const [hi, pair] of list.pairs ?? []) {
        const key = `${id}+${hi}`;
        checkList(pair, pairs.get(key) ?? [], `${kind} pair ${key}`);
        pairs.delete(key);
      }
      lists.delete(id);
    }
    assert.equal([...lists.keys()], [], `${label}: ${kind} ids without a list`);
    // pair lists are made on demand (CalendarState.pairList): the ones that exist are exact
  }

  // the venue groups' lists, once made: the rows at any venue of the group, in the main index's
  // order; a group whose list holds a row of several venues is marked mixed (never taken whole)
  const groups = st.venueGroups;
  if (groups.ready) {
    const want = Array.from({ length: groups.groupCount }, () => [] as number[]);
    const several = new Uint8Array(groups.groupCount);
    const out: number[] = [];
    for (let i = 0; i < main.count; i++) {
      const row = main.rows[i];
      const many = groups.groupsOf(row, t, out);
      for (const g of out) {
        want[g].push(row);
        if (many) several[g] = 1;
      }
    }
    for (let g = 0; g < groups.groupCount; g++) {
      const { list, mixed } = groups.groupList(g);
      checkList(list, want[g], `venue group ${g}`);
      if (several[g] === 1 && !mixed)
        assert.unreachable(`${label}: venue group ${g} holds a row of several venues, not mixed`);
    }
  }
}
