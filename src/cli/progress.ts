// The import progress bar: on a terminal one line redrawn with \r, at most every 100 ms
// ("[#####.....]  52% 52000/100000 events"); elsewhere nothing until the summary line.

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Progress {
  update(done: number, total: number): void;
  /** clears the bar (terminal only), so the summary starts on a clean line */
  finish(): void;
}

const WIDTH = 30;

export function renderBar(done: number, total: number, unit: string, width = WIDTH): string {
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
  const filled = Math.round(ratio * width);
  const pct = String(Math.floor(ratio * 100)).padStart(3);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${pct}% ${done}/${total} ${unit}`;
}

export function createProgress(stream: ProgressStream, unit: string, now: () => number = Date.now): Progress {
  if (!stream.isTTY) return { update() {}, finish() {} };
  let last = -Infinity;
  let shown = '';
  return {
    update(done, total) {
      const t = now();
      if (done < total && t - last < 100) return;
      last = t;
      const line = renderBar(done, total, unit);
      if (line === shown) return;
      shown = line;
      stream.write(`\r${line}`);
    },
    finish() {
      if (shown) stream.write(`\r${' '.repeat(shown.length)}\r`);
      shown = '';
    },
  };
}
