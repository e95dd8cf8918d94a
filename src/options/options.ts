// What reads the options table (table.ts): `serve` (src/cli/serve.ts) parses its command line and
// environment through `optionValue` and `parseArgsOptions`, openCalendar checks and defaults its
// options through `embeddedOptions`, `--help` prints `usageLines`, and a test holds the docs'
// table to `docsTable`.

import { OptionProblem, type OptionRow } from './row.ts';
import { OPTIONS } from './table.ts';

/** The row of a flag or variable (by its flag, else its variable's name). */
export function optionRow(name: string): OptionRow {
  const row = OPTIONS.find((o) => o.flag === name) ?? OPTIONS.find((o) => o.env === name);
  if (!row) throw new Error(`no option ${name}`);
  return row;
}

/** node:util parseArgs's options for the rows `keep` accepts. */
export function parseArgsOptions(keep: (row: OptionRow) => boolean): Record<string, { type: 'string' | 'boolean' }> {
  const out: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const row of OPTIONS) if (row.flag && keep(row)) out[row.flag] = { type: row.boolean ? 'boolean' : 'string' };
  return out;
}

/** A flag's or variable's value with where it came from, for messages. */
export interface Given<T = unknown> {
  value: T;
  /** `--flag` or the variable's name */
  from: string;
  /** the text as given */
  text: string;
}

/**
 * The value of one row from the parsed flags, else its variable (an empty variable is unset),
 * parsed; undefined when neither gives it. A bad text throws OptionProblem("FROM: what was expected").
 */
export function given(
  row: OptionRow,
  values: Record<string, unknown>,
  env: Record<string, string | undefined>,
): Given | undefined {
  let text: string | undefined;
  let from = '';
  const v = row.flag ? values[row.flag] : undefined;
  if (row.boolean && v === true) return { value: true, from: `--${row.flag}`, text: '' };
  if (row.boolean && !row.env) return undefined;
  if (typeof v === 'string') [text, from] = [v, `--${row.flag}`];
  else if (row.env && env[row.env] !== undefined && env[row.env] !== '') [text, from] = [env[row.env]!, row.env];
  if (text === undefined) return undefined;
  try {
    return { value: row.parse ? row.parse(text) : text, from, text };
  } catch (err) {
    if (err instanceof OptionProblem)
      throw new OptionProblem(`${from}${err.message.startsWith('is ') ? ' ' : ': '}${err.message}`);
    throw err;
  }
}

/** `given` of the row named (its flag, else its variable). */
export function pickOption(
  name: string,
  values: Record<string, unknown>,
  env: Record<string, string | undefined>,
): Given | undefined {
  return given(optionRow(name), values, env);
}

/** The value of a row: given, else its default. */
export function optionValue<T>(
  name: string,
  values: Record<string, unknown>,
  env: Record<string, string | undefined>,
): T {
  const row = optionRow(name);
  return (given(row, values, env)?.value ?? row.value) as T;
}

/**
 * openCalendar's options checked and defaulted by the rows that have an `embed` name: each value
 * given is checked (the first problem is returned as "NAME PROBLEM"), each one missing takes the
 * row's default.
 */
export function embeddedOptions<T extends object>(opts: T): { options: T; problem?: string } {
  const out: Record<string, unknown> = { ...(opts as Record<string, unknown>) };
  for (const row of OPTIONS) {
    if (!row.embed) continue;
    const v = out[row.embed];
    if (v === undefined) {
      if (row.value !== undefined) out[row.embed] = row.value;
      continue;
    }
    const problem = row.check?.(v);
    if (problem) return { options: out as T, problem: `${row.embed} ${problem}` };
  }
  return { options: out as T };
}

const wrap = (text: string, width: number, indent: number): string => {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
};

/** `--help`'s lines of the rows `keep` accepts: flag, variable, words, default. */
export function usageLines(keep: (row: OptionRow) => boolean): string {
  const rows = OPTIONS.filter((o) => (o.flag || o.env) && keep(o));
  const left = (o: OptionRow) => (o.flag ? `--${o.flag}${o.arg ? ` ${o.arg}` : ''}` : '');
  // the same columns in every group, as wide as the widest row of the whole table
  const w1 = Math.max(...OPTIONS.map((o) => left(o).length)) + 2;
  const w2 = Math.max(...OPTIONS.map((o) => (o.env ?? '').length)) + 2;
  return rows
    .map((o) => {
      const words = o.shown === 'unset' || o.boolean ? o.help : `${o.help} (default ${o.shown})`;
      return `  ${left(o).padEnd(w1)}${(o.env ?? '').padEnd(w2)}${wrap(words, 100 - 2 - w1 - w2, 2 + w1 + w2)}\n`;
    })
    .join('');
}

/** The docs' table of `serve`'s options and variables (docs/operating.md), in Markdown. */
export function docsTable(): string {
  const lines = ['| option | env | default | meaning |', '|---|---|---|---|'];
  for (const o of OPTIONS) {
    if (!o.flag && !o.env) continue;
    const flag = o.flag ? `\`--${o.flag}${o.arg ? ` ${o.arg}` : ''}\`` : '';
    const shown = /^(unset|random|seeding on|pages on|off|system CAs)$/.test(o.shown) ? o.shown : `\`${o.shown}\``;
    lines.push(`| ${flag} | ${o.env ? `\`${o.env}\`` : ''} | ${shown} | ${o.doc ?? o.help} |`);
  }
  return `${lines.join('\n')}\n`;
}
