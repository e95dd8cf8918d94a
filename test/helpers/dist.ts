// The package's built JavaScript (dist/, npm run build) for the tests that run it with plain node:
// built first when older than a source (scripts/build.mjs --if-stale; one tsc run, ~25 s).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** the program, as the package's `bin` runs it */
export const DIST_MAIN = path.join(ROOT, 'dist/cli/main.js');

/** Builds dist/ unless it is newer than every source. */
export function ensureDist(): void {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--if-stale'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}
