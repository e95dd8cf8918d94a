// Recurring events: RFC 5545 recurrence sets (RRULE, RDATE, EXDATE) on an event's start, in its
// zone with wall-clock semantics. The rest of the engine uses this folder through these names.

export { parseRecurrence, parseDateValue } from './parse.ts';
export { representRecurrence, addExclusion, untilBefore, countsFrom, localAt } from './represent.ts';
export type { RecurrenceRepresentation } from './represent.ts';
export { occurrences, occurrenceAt, lastOccurrence, isBounded } from './set.ts';
export type { Occurrence, RecurrenceSet, SeriesTime } from './set.ts';
export { RECURRENCE_LIMITS } from './rule.ts';
