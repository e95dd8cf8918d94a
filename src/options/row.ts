// One row of the options table (table.ts) and the parsers and checks its rows share: what a
// flag's or variable's text may be, and what an openCalendar value may be.

export const MIB = 1024 * 1024;

/** A flag's or variable's text that cannot be used; the message says what was expected. */
export class OptionProblem extends Error {}

/** The change feed's retention as `--changes-retain` gives it: an age, or a number of changes. */
export type Retention = { ms: number } | { count: number };

export interface OptionRow {
  /** the `serve` flag, without its dashes */
  flag?: string;
  /** the flag's value in `--help` (`--port P`); none for a switch */
  arg?: string;
  /** a switch: present or not, no value */
  boolean?: true;
  /** the environment variable (the flag, when both are given, wins) */
  env?: string;
  /** openCalendar's option, when the embedding API has it */
  embed?: string;
  /** the default as `--help` and the docs show it */
  shown: string;
  /** the value when neither flag nor variable (nor openCalendar) gives one */
  value?: unknown;
  /** the flag's or variable's text → the value; throws OptionProblem (its message follows "--flag: ") */
  parse?: (text: string) => unknown;
  /** an openCalendar value → what is wrong with it, or undefined when it is good */
  check?: (value: unknown) => string | undefined;
  /** `--help`: one line (wrapped at 100 columns) */
  help: string;
  /** the docs' table, in Markdown (default: help) */
  doc?: string;
  /** listed under "Cluster" in `--help` (the `user` command takes these too) */
  cluster?: true;
}

export const mib =
  (min: '>= 0' | '> 0', max = 1_048_576) =>
  (text: string): number => {
    const n = Number(text);
    if (!/^\d+(\.\d+)?$/.test(text) || n > max || (min === '> 0' && n === 0)) {
      throw new OptionProblem(
        `expected a number of MiB ${min === '>= 0' ? `from 0 to ${max}` : `above 0, at most ${max}`}, got '${text}'`,
      );
    }
    return Math.round(n * MIB);
  };
export const switchText = (text: string): boolean => {
  const t = text.trim().toLowerCase();
  if (t === '1' || t === 'true' || t === 'yes') return true;
  if (t === '0' || t === 'false' || t === 'no' || t === '') return false;
  throw new OptionProblem(`expected 1 or 0 (true/false, yes/no), got '${text}'`);
};
export const loginCount = (text: string): number => {
  if (!/^\d{1,9}$/.test(text.trim()))
    throw new OptionProblem(`expected a whole number of failed logins (0: no limit), got '${text}'`);
  return Number(text);
};
/** a BCP 47 tag that Intl formats dates in (not one it silently replaces by its default) */
export function validLocale(tag: string): boolean {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([tag]).length === 1;
  } catch {
    return false;
  }
}
export const positive =
  (unit: string) =>
  (v: unknown): string | undefined =>
    typeof v === 'number' && v > 0 ? undefined : `must be a number${unit} > 0, got ${String(v)}`;
export const plain = (text: string): string => text;

export function wholeAtLeast(text: string, min: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min)
    throw new OptionProblem(`expected a whole number >= ${min}, got '${text}'`);
  return Number(text);
}
