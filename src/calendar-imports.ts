// Calendar's import verbs: the import wing (src/import/) stages and checks an import, then it
// joins the calendar in one bulk load through the write log (src/write-log/), which makes it
// durable as a snapshot.
import type { EventRecord } from './engine/records.ts';
import type { ImportSet } from './engine/engine-api.ts';
import type { EventTable } from './engine/event-table.ts';
import { prepareImport, type ImportData, type ImportProgress, type ImportSummary } from './import/index.ts';
import type { ImportFormat } from './import/read-records.ts';
import { stageImportFile } from './import/file.ts';
import { stageRows, type ImportRow } from './import/rows.ts';
import { writeImportedMedia } from './media/import.ts';
import type { SnapshotStream } from './store/snapshot-stream.ts';
import type { CalendarHandle } from './calendar-handle.ts';

export interface ImportFileOptions {
  format?: ImportFormat;
  onProgress?: ImportProgress;
  alone?: boolean;
  workers?: number;
  blockBytes?: number;
}

/** The import shape, validated whole, then loaded. */
export async function importData(
  h: CalendarHandle,
  data: ImportData,
  onProgress?: ImportProgress,
): Promise<ImportSummary> {
  const { set, table, summary } = prepareImport(h.collections.core, data, onProgress);
  await loadImport(h, set, table);
  return summary;
}

/** An import file read as a stream and staged, then loaded (Calendar.importFile). */
export async function importFile(h: CalendarHandle, file: string, opts: ImportFileOptions): Promise<ImportSummary> {
  // alone into a store-backed calendar without events, the staged rows become its rows as they
  // are: once loaded, its snapshot is streamed to a worker thread that writes it, the rows in the
  // main index's order with the posting lists and block statistics (what a re-saved store holds)
  const stream = opts.alone && h.engine.eventRowCount === 0 ? h.log.beginSnapshot?.() : undefined;
  try {
    const { set, table, summary } = await stageImportFile(h.collections.core, file, opts);
    await loadImport(h, set, table, opts, [], stream && { stream, rows: table.count });
    return summary;
  } catch (err) {
    await stream?.abort();
    throw err;
  }
}

/** The rows of a CSV or iCalendar file (`read`), staged as one import, then loaded. */
export async function importRows(
  h: CalendarHandle,
  file: string,
  read: () => Promise<ImportRow[]>,
): Promise<ImportSummary> {
  const { set, table, updates, summary } = await stageRows(h.collections.core, file, read);
  await loadImport(h, set, table, {}, updates);
  return summary;
}

/** A validated import joins the calendar in one bulk load, which the log makes durable (a
 *  snapshot). `alone`: nothing else uses this calendar (the import command): its indexes are
 *  left to the first read that needs them, no search index is built after the load, and the
 *  snapshot does not pause for concurrent writers. `updates`: existing events a CSV import
 *  updates. `streamed`: its snapshot goes to this stream once loaded (Engine.streamedSnapshot). */
async function loadImport(
  h: CalendarHandle,
  set: ImportSet,
  table: EventTable,
  opts: { alone?: boolean } = {},
  updates: EventRecord[] = [],
  streamed?: { stream: SnapshotStream; rows: number },
): Promise<void> {
  const refusal = h.log.refusal();
  if (refusal) throw refusal;
  // the files of the uploads it brings first (src/media/import.ts): taken back if it fails
  const undoFiles = await writeImportedMedia(h.media.files, set.attachments);
  try {
    const load = () => {
      h.engine.bulkLoad(set, table, { searchIndex: !opts.alone, deferIndexes: opts.alone });
      // existing events a CSV import updates: after the load, which may bring what they link to
      if (updates.length > 0) h.engine.apply(updates.map((rec) => ({ t: 'event', a: 'put', rec })));
      if (streamed && h.engine.eventRowCount !== streamed.rows)
        throw new Error(
          `import: expected the ${streamed.rows} rows streamed to the snapshot, got ${h.engine.eventRowCount} events`,
        );
    };
    // the body's chunks to the writer as they are made (waiting when it is behind), then the head
    const head = async () => {
      const { head, body } = h.engine.streamedSnapshot();
      for await (const chunk of body) {
        const wait = streamed!.stream.add(chunk);
        if (wait) await wait;
      }
      return head;
    };
    const marker = await h.log.bulkLoad(load, {
      alone: opts.alone,
      ...(streamed && { streamed: { stream: streamed.stream, head } }),
    });
    // in a cluster: a marker at which every node loads the import's snapshot
    if (marker !== undefined) h.loaded(marker);
    // series imported without (all) their occurrences get them, in a write of their own
    await h.extendHorizon();
  } catch (err) {
    await undoFiles();
    throw err;
  }
}
