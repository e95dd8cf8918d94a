import { ListInterner, EMPTY_IDS } from '../src/engine/event-table.ts';
const li = new ListInterner<number>(EMPTY_IDS);
let seed = 1; const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
const lists: number[][] = [];
for (let i = 0; i < 3e6; i++) { const k = Math.floor(rnd() * 5); const l: number[] = []; for (let j = 0; j < k; j++) { const v = 40 + Math.floor(rnd() * rnd() * 100); if (!l.includes(v)) l.push(v); } lists.push(JSON.parse(JSON.stringify(l))); }
for (let r = 0; r < 3; r++) { const t = performance.now(); let n = 0; for (const l of lists) n += li.intern(l).length; console.log('intern 3M', (performance.now() - t).toFixed(0), n); }
const cl = new ListInterner<string>([]);
const costs = lists.map((l, i) => (i % 3 ? ['10'] : ['5', '15']));
for (let r = 0; r < 2; r++) { const t = performance.now(); let n = 0; for (const l of costs) n += cl.intern(l).length; console.log('cost 3M', (performance.now() - t).toFixed(0), n); }
