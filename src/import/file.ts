// An import file's records, read as a stream (src/import/read-records.ts), validated and staged one
// by one (ImportBuilder, src/import/index.ts); what Calendar.importFile loads.
import fs from 'node:fs';
import os from 'node:os';
import type { ImportSet } from '../engine/engine-api.ts';
import type { EventTable } from '../engine/event-table.ts';
import { detectFormat, readImportBatches, type ImportFormat } from './read-records.ts';
import { ImportFileError } from './scanners.ts';
import { ImportWorkers, importWorkersAvailable } from './workers.ts';
import type { Core } from '../api/context.ts';
import { ImportBuilder } from './index.ts';
import type { ImportProgress, ImportSummary } from './shape.ts';
import { CalendarError, fail } from '../api/wordpress/errors.ts';

/**
 * A JSON (or JSON Lines) file this large or larger is read by worker threads too (when there is a core for them).
 * Measured on the 2-core machine (docs/import-export.md#speed): at 100k events (63 MiB) two
 * workers gave no time (2.5-3.3 s either way) for ~80 MiB more peak memory; at 300k (191 MiB) and
 * 1M (638 MiB) they did.
 */
export const PARALLEL_BYTES = 128 * 2 ** 20;

/**
 * The staging table's room made once for the whole file, from what the first part of it brought:
 * once ROOM_AFTER_BYTES of texts are staged, the rows and text bytes still to come are estimated
 * from the share of the file read, with ROOM_SLACK more, and the table's columns and text buffer
 * take that room at once. Grown as it fills instead (the text buffer a quarter more at a time),
 * a million-event import copied its texts ~4 times over (~1.6 s of the importing thread, and
 * fresh pages each time); an estimate short of the end only leaves the last rows to grow as before,
 * and room never written is never touched (no memory used).
 */
const ROOM_AFTER_BYTES = 16 * 2 ** 20;
const ROOM_SLACK = 1.08;

class RoomAhead {
  private done = false;
  constructor(private readonly table: EventTable) {}

  /** `read` of the file's `total` bytes read so far. */
  check(read: number, total: number): void {
    const t = this.table;
    if (this.done || t.texts.used < ROOM_AFTER_BYTES || read <= 0 || read >= total) return;
    this.done = true;
    const share = total / read;
    t.reserve(Math.ceil(t.count * share * ROOM_SLACK));
    t.texts.reserveBytes(Math.ceil(t.texts.used * (share * ROOM_SLACK - 1)));
  }
}

/** CALENDAR_IMPORT_WORKERS: the number of workers of a JSON or JSON Lines import (0: none), whatever its size. */
function envWorkers(): number | undefined {
  const v = process.env.CALENDAR_IMPORT_WORKERS;
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

export interface StagedFile {
  set: ImportSet;
  table: EventTable;
  summary: ImportSummary;
}

/** Throws CalendarError naming the record (list, index, id, line) or the place in the file. */
export async function stageImportFile(
  core: Core,
  file: string,
  opts: { format?: ImportFormat; onProgress?: ImportProgress; workers?: number; blockBytes?: number },
): Promise<StagedFile> {
  const builder = new ImportBuilder(core);
  const table = builder.table;
  let total = 0;
  let workers: ImportWorkers | undefined;
  let read = 0;
  const sized = new RoomAhead(table);
  try {
    total = fs.statSync(file).size;
    const format = opts.format ?? detectFormat(file);
    // by default, two workers for a large file when there is a second core; the importing thread
    // checks their events against the calendar, and the snapshot writer shares the cores too
    const count =
      opts.workers ??
      envWorkers() ??
      (total >= PARALLEL_BYTES && os.availableParallelism() > 1 && importWorkersAvailable() ? 2 : 0);
    if (count > 0 && (format === 'json' || format === 'jsonl'))
      workers = await ImportWorkers.start(count, builder.workerData());
    workers?.useTable(table.texts.symbolTable);
    const parallel = workers && { workers, blockBytes: opts.blockBytes };
    for await (const batch of readImportBatches(
      file,
      format,
      (bytes) => {
        read = bytes;
        opts.onProgress?.(bytes, total);
      },
      undefined,
      parallel,
    )) {
      if (Array.isArray(batch)) {
        for (const r of batch) builder.add(r.kind, r.rec, { index: r.index, line: r.line });
      } else builder.addPacked(batch.packed, batch.index, batch.line);
      // once the texts are coded, the workers code them for the blocks they take next
      workers?.useTable(table.texts.symbolTable);
      sized.check(read, total);
    }
  } catch (err) {
    if (err instanceof CalendarError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const message =
      code === 'ENOENT'
        ? `${file}: no such file`
        : err instanceof ImportFileError
          ? err.message
          : `${file}: ${(err as Error).message}`;
    throw fail('rest_invalid_param', [], {}, { message: `import: ${message}` });
  } finally {
    await workers?.close();
  }
  const { set } = builder.finish();
  opts.onProgress?.(total, total);
  return { set, table, summary: builder.summary };
}
