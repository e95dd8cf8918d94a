// The recurrence fields of an event's REST representation: a series shows its `recurrence`, an
// occurrence its series (`post_parent`), its original start (`recurrence_id`) and whether it was
// edited on its own (`is_exception`). Other events show none of them.

import type { EngineApi } from '../engine/engine-api.ts';
import { representRecurrence } from './index.ts';
import { seriesTimeAt, setAt } from './stored.ts';

/** The fields as an object (undefined for an event that is neither a series nor an occurrence). */
export function recurrenceFields(
  engine: EngineApi,
  row: number,
  siteZone: string,
): Record<string, unknown> | undefined {
  const info = engine.eventTable.recur.size > 0 ? engine.eventTable.recur.get(row) : undefined;
  if (!info) return undefined;
  if (info.recurrence) {
    const set = setAt(engine, row, siteZone);
    const r = set ? representRecurrence(set, seriesTimeAt(engine, row, siteZone)) : { ...info.recurrence, text: '' };
    return { recurrence: { rules: r.rules, rdates: r.rdates, exdates: r.exdates, text: r.text } };
  }
  return {
    post_parent: engine.eventTable.parentIds[row],
    recurrence_id: info.recurrenceId ?? '',
    is_exception: info.exception === true,
  };
}

/** The fields as JSON text to put before the object's closing brace: ',"…":…' or ''. */
export function recurrenceJson(engine: EngineApi, row: number, siteZone: string): string {
  const fields = recurrenceFields(engine, row, siteZone);
  if (!fields) return '';
  const text = JSON.stringify(fields);
  return ',' + text.slice(1, -1);
}
