// The rows of a CSV or iCalendar file (csv.ts, ical.ts) staged as one import: each row validated
// by ImportBuilder in file order (a row that updates an existing event by its own place), errors
// naming the file and the row. What Calendar.importCsv and importIcs load.

import type { EventRecord } from '../engine/records.ts';
import type { ImportSet } from '../engine/engine-api.ts';
import type { EventTable } from '../engine/event-table.ts';
import type { Core } from '../api/context.ts';
import { CalendarError, fail, type ErrorCode } from '../api/wordpress/errors.ts';
import { ImportBuilder, type ImportKind, type ImportSummary } from './index.ts';

/** One row of a file: the record of a kind, its row number, and the event it updates (if any). */
export interface ImportRow {
  kind: ImportKind;
  rec: Record<string, unknown>;
  row: number;
  update?: number;
}

/** Read `file` with `read` and stage its rows; throws CalendarError naming the file and row. */
export async function stageRows(
  core: Core,
  file: string,
  read: () => Promise<ImportRow[]>,
): Promise<{ set: ImportSet; table: EventTable; updates: EventRecord[]; summary: ImportSummary }> {
  let records;
  try {
    records = await read();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const message = code === 'ENOENT' ? `${file}: no such file` : (err as Error).message;
    throw fail('rest_invalid_param', [], {}, { message: `import: ${message}` });
  }
  const builder = new ImportBuilder(core);
  const index: Record<string, number> = {};
  for (const r of records) {
    try {
      if (r.update !== undefined) builder.add(r.kind, r.rec, { index: r.row }, r.update);
      else builder.add(r.kind, r.rec, { index: (index[r.kind] = (index[r.kind] ?? -1) + 1) });
    } catch (err) {
      if (err instanceof CalendarError) {
        const message = `import: ${file}: row ${r.row}: ${err.message.replace(/^import: \S+\[\d+\]( \(id \d+\))?: /, '')}`;
        throw fail(err.code as ErrorCode, [], err.data, { status: err.status, message });
      }
      throw err;
    }
  }
  const { set, table, updates } = builder.finish();
  return { set, table, updates, summary: builder.summary };
}
