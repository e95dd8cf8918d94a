// The programs under test/fixtures/ that tests spawn as child processes run only as such: uvu
// imports every file under test/ whose name matches its pattern (`uvu test crash` takes in
// fixtures/crash-writer.ts too), and there process.argv holds uvu's own arguments ('test' first),
// which a child would take for its store directory and fill the checkout's test/ folder.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** true when the module at `url` is the program node was started with (process.argv[1]) */
export function isMainProgram(url: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return fs.realpathSync(entry) === fs.realpathSync(fileURLToPath(url));
  } catch {
    return false;
  }
}
