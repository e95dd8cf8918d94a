// The import file of a generated calendar (bench/generate.ts), written once per (events, seed)
// and kept: `calendar-engine export` layout, the import shape with one record a line.
//
//   node --import tsx bench/import-file.ts --events N [--seed S] [--dir DIR]   (prints the path)

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { streamCalendar } from './generate.ts';
import { NOW } from './queries.ts';

export const DEFAULT_IMPORT_DIR = path.join(os.tmpdir(), 'calendar-engine-bench-import');

/** Path of the import file of (events, seed) in `dir`, written when missing (atomically). */
export function importFile(events: number, seed: number, dir = DEFAULT_IMPORT_DIR): { file: string; made: boolean } {
  const file = path.join(dir, `calendar-${events}-${seed}.json`);
  if (fs.existsSync(file)) return { file, made: false };
  fs.mkdirSync(dir, { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = fs.openSync(tmp, 'w');
  try {
    // written as generated: the events are never all held (ten million would not fit in a heap)
    let buf = '{';
    const flush = () => {
      if (buf.length >= 1 << 20) {
        fs.writeSync(fd, buf);
        buf = '';
      }
    };
    let first = true;
    streamCalendar(
      { events, seed, now: NOW },
      (ev) => {
        buf += (first ? '\n' : ',\n') + JSON.stringify(ev);
        first = false;
        flush();
      },
      (data) => {
        const lists = ['categories', 'tags', 'venues', 'organizers'] as const;
        for (const [i, name] of lists.entries()) {
          buf += `${i === 0 ? '' : '],'}\n"${name}":[`;
          const list = data[name] as unknown[];
          for (let k = 0; k < list.length; k++) {
            buf += (k === 0 ? '\n' : ',\n') + JSON.stringify(list[k]);
            flush();
          }
        }
        buf += '],\n"events":[';
      },
    );
    fs.writeSync(fd, buf + '\n]}\n');
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  return { file, made: true };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const { file } = importFile(Number(arg('events') ?? 100000), Number(arg('seed') ?? 1), arg('dir'));
  process.stdout.write(file + '\n');
}
