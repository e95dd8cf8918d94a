// An import file's records, read as a stream (src/io/read-records.ts), validated and staged one
// by one (ImportBuilder, src/api/import.ts); what Calendar.importFile loads. With `onChunk`, the
// staged events are also handed out as the snapshot's events chunks (engine/snapshot.ts
// encodeRows), EVENT_CHUNK_ROWS rows at a time as soon as they are staged, the last one once
// every record is in and valid: into a calendar without events the staged rows become its rows
// as they are, so these are its snapshot's chunks, and a worker can write them while the file is
// still being read. When onChunk returns a promise (its taker is behind), the reading waits for it.
import fs from 'node:fs';
import type { ImportSet } from '../engine/engine-api.ts';
import type { EventTable } from '../engine/event-table.ts';
import { EVENT_CHUNK_ROWS, encodeRows } from '../engine/snapshot.ts';
import { ImportFileError, readImportBatches, type ImportFormat } from '../io/read-records.ts';
import type { Core } from './context.ts';
import { ImportBuilder } from './import.ts';
import type { ImportProgress, ImportSummary } from './import-shape.ts';
import { CalendarError } from './wordpress/errors.ts';

export interface StagedFile {
  set: ImportSet;
  table: EventTable;
  summary: ImportSummary;
  /** rows handed to onChunk (all of them, when it was given) */
  chunkedRows: number;
}

/** Throws CalendarError naming the record (list, index, id, line) or the place in the file. */
export async function stageImportFile(
  core: Core, file: string, opts: { format?: ImportFormat; onProgress?: ImportProgress }, onChunk?: (chunk: unknown) => Promise<void> | undefined,
): Promise<StagedFile> {
  const builder = new ImportBuilder(core);
  const table = builder.table;
  let chunked = 0;
  let total = 0;
  try {
    total = fs.statSync(file).size;
    for await (const batch of readImportBatches(file, opts.format, (bytes) => opts.onProgress?.(bytes, total))) {
      for (const r of batch) {
        builder.add(r.kind, r.rec, { index: r.index, line: r.line });
        if (onChunk !== undefined && table.count - chunked >= EVENT_CHUNK_ROWS) {
          const wait = onChunk(encodeRows(table, chunked, chunked + EVENT_CHUNK_ROWS));
          chunked += EVENT_CHUNK_ROWS;
          if (wait) await wait;
        }
      }
    }
  } catch (err) {
    if (err instanceof CalendarError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const message = code === 'ENOENT' ? `${file}: no such file` : err instanceof ImportFileError ? err.message : `${file}: ${(err as Error).message}`;
    throw new CalendarError('rest_invalid_param', 400, `import: ${message}`);
  }
  const { set } = builder.finish();
  if (onChunk !== undefined && table.count > chunked) {
    await onChunk(encodeRows(table, chunked, table.count));
    chunked = table.count;
  }
  opts.onProgress?.(total, total);
  return { set, table, summary: builder.summary, chunkedRows: chunked };
}
