// The errors (src/api/wordpress/errors.ts): one table of every code, from which fail() builds each
// error and docs/errors.md lists them as they are; the helpers for WordPress's parameter errors.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CalendarError, ERROR_CODES, fail, invalidParams, missingParams } from '../../../src/api/wordpress/errors.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const errors = suite('errors');

/** The docs' table as the code's table makes it (a `%s` is a part the message fills in). */
function errorsDocTable(): string {
  const rows = ERROR_CODES.map(
    (e) =>
      `| \`${e.code}\` | ${e.status} | ${e.message === '%s' ? '(says which option and what is wrong)' : e.message.replace(/%s/g, '…').replace(/\|/g, '\\|')} |`,
  );
  return ['| code | status | message |', '|---|---|---|', ...rows].join('\n') + '\n';
}

errors('fail :: builds code, status and message from the table', () => {
  const e = fail('rest-event-not-found', [23]);
  assert.instance(e, CalendarError);
  assert.is(e.code, 'rest-event-not-found');
  assert.is(e.status, 404);
  assert.is(e.message, 'Event with ID 23 does not exist.');
  assert.equal(e.toJSON(), {
    code: 'rest-event-not-found',
    message: 'Event with ID 23 does not exist.',
    data: { status: 404 },
  });
});

errors('invalidParams :: lists every parameter like WordPress core', () => {
  const e = invalidParams({ start_date: 'Invalid parameter.', page: 'Invalid parameter.' });
  assert.is(e.code, 'rest_invalid_param');
  assert.is(e.status, 400);
  assert.is(e.message, 'Invalid parameter(s): start_date, page');
  assert.equal(e.data, {
    status: 400,
    params: { start_date: 'Invalid parameter.', page: 'Invalid parameter.' },
    details: {},
  });
});

errors('missingParams :: data.params is the array of names', () => {
  const e = missingParams(['title', 'start_date']);
  assert.is(e.code, 'rest_missing_callback_param');
  assert.equal(e.data.params, ['title', 'start_date']);
  assert.is(e.message, 'Missing parameter(s): title, start_date');
});

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
