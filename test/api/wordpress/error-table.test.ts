// One table of every error code (src/api/wordpress/errors.ts, TABLE): every error is built from
// it by fail(), and docs/errors.md lists it as it is.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, fail } from '../../../src/api/wordpress/errors.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const errors = suite('errors :: one table');

/** The docs' table as the code's table makes it (a `%s` is a part the message fills in). */
function errorsDocTable(): string {
  const rows = ERROR_CODES.map(
    (e) =>
      `| \`${e.code}\` | ${e.status} | ${e.message === '%s' ? '(says which option and what is wrong)' : e.message.replace(/%s/g, '…').replace(/\|/g, '\\|')} |`,
  );
  return ['| code | status | message |', '|---|---|---|', ...rows].join('\n') + '\n';
}

errors('docs/errors.md lists every code with its status and message, as the table has them', () => {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/errors.md'), 'utf8');
  const at = doc.indexOf('| code | status | message |');
  assert.ok(at >= 0, 'the table is in docs/errors.md');
  const end = doc.indexOf('\n\n', at);
  assert.fixture(doc.slice(at, end < 0 ? undefined : end).trimEnd() + '\n', errorsDocTable());
});

errors('fail(): status and message from the table, data carries the status', () => {
  const e = fail('rest_changes_expired', [5, 9], { oldest: 9 });
  assert.is(e.status, 410);
  assert.is(
    e.message,
    'The changes after seq 5 are no longer retained (the oldest retained follows seq 9): resynchronise from the lists, then follow from the current head.',
  );
  assert.equal(e.toJSON(), { code: 'rest_changes_expired', message: e.message, data: { status: 410, oldest: 9 } });
  assert.is(fail('rest_forbidden', [], {}, { status: 401 }).data.status, 401);
});

errors(
  "every error is built through fail(): no CalendarError made elsewhere but a writer's, rebuilt from its reply",
  () => {
    const makers: string[] = [];
    const visit = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, entry.name);
        if (entry.isDirectory()) visit(p);
        else if (p.endsWith('.ts') && !p.endsWith(path.join('wordpress', 'errors.ts'))) {
          for (const line of fs.readFileSync(p, 'utf8').split('\n'))
            if (/new CalendarError\(/.test(line)) makers.push(`${path.relative(ROOT, p)}: ${line.trim()}`);
        }
      }
    };
    visit(path.join(ROOT, 'src'));
    assert.equal(makers, [
      'src/cluster/forward.ts: throw new CalendarError(reply.error.code, reply.error.status, reply.error.message, reply.error.data);',
    ]);
  },
);

errors.run();
