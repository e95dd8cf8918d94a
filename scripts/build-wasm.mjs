// npm run build:wasm: compiles src/engine/bit-count.wat (WebAssembly text) with wabt into
// src/engine/bit-count-wasm.ts, the module's bytes as base64, which bit-arena.ts instantiates.
// The bytes are committed, so neither a build nor an install needs wabt; the test
// test/engine/bit-arena.test.ts compiles the text again and fails when the two differ.
// `--check`: compile and compare only, exit 1 when the committed file is out of date.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = path.join(ROOT, 'src/engine/bit-count.wat');
const OUT = path.join(ROOT, 'src/engine/bit-count-wasm.ts');

/** The TypeScript module holding the compiled bytes of bit-count.wat. */
async function compiled() {
  const wabt = await wabtInit();
  const mod = wabt.parseWat('bit-count.wat', fs.readFileSync(SOURCE, 'utf8'), { threads: true });
  mod.validate({ threads: true });
  const { buffer } = mod.toBinary({});
  mod.destroy();
  const base64 = Buffer.from(buffer).toString('base64');
  return [
    '// Generated from bit-count.wat by `npm run build:wasm` (scripts/build-wasm.mjs): do not edit.',
    'export const BIT_COUNT_WASM =',
    `  '${base64}';`,
    '',
  ].join('\n');
}

const text = await compiled();
if (process.argv.includes('--check')) {
  const same = fs.existsSync(OUT) && fs.readFileSync(OUT, 'utf8') === text;
  console.log(same ? 'bit-count-wasm.ts is up to date' : 'bit-count-wasm.ts differs from bit-count.wat');
  process.exit(same ? 0 : 1);
}
fs.writeFileSync(OUT, text);
console.log(`wrote ${path.relative(ROOT, OUT)}`);
