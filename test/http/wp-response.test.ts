import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { filterFields, errorReply } from '../../src/http/wp-response.ts';
import { fail } from '../../src/api/wordpress/errors.ts';

const ff = suite('wp-response :: _fields');

const list = {
  events: [
    { id: 1, title: 'A', venue: { id: 9, city: 'X' } },
    { id: 2, title: 'B', venue: [] },
  ],
  rest_url: 'u',
  total: 2,
  total_pages: 1,
};

ff('single records: top-level keys, in the record order', () => {
  assert.equal(filterFields({ id: 1, title: 'A', slug: 'a' }, 'slug,id'), { id: 1, slug: 'a' });
  assert.equal(filterFields({ id: 1 }, 'nope'), {});
});

ff('nested a.b', () => {
  assert.equal(filterFields({ id: 1, venue: { id: 9, city: 'X' } }, 'venue.city'), { venue: { city: 'X' } });
});

ff('lists: envelope names select envelope keys, other names each item', () => {
  assert.equal(filterFields(list, 'id,total'), { events: [{ id: 1 }, { id: 2 }], total: 2 });
  assert.equal(filterFields(list, 'total_pages'), { total_pages: 1 });
  assert.equal(filterFields(list, 'events.title'), { events: [{ title: 'A' }, { title: 'B' }] });
  assert.equal(filterFields(list, 'events'), { events: list.events });
  assert.equal(filterFields(list, 'venue.city'), { events: [{ venue: { city: 'X' } }, { venue: [] }] });
});

ff('empty _fields keeps everything', () => {
  assert.equal(filterFields(list, ' , '), list);
});

ff.run();

// ---

const er = suite('wp-response :: errorReply');

er('CalendarError keeps code, message, data and status', () => {
  const r = errorReply(fail('rest_invalid_param', ['page'], { params: { page: 'Invalid parameter.' } }), 'GET /x', () =>
    assert.unreachable(),
  );
  assert.is(r.status, 400);
  assert.equal(JSON.parse(r.body), {
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): page',
    data: { status: 400, params: { page: 'Invalid parameter.' } },
  });
});

er('anything else is a generic 500 and one log line', () => {
  const lines: string[] = [];
  const r = errorReply(new TypeError('x is undefined\nstack'), 'GET /p', (l) => lines.push(l));
  assert.is(r.status, 500);
  assert.is(JSON.parse(r.body).code, 'internal_error');
  assert.not.match(r.body, 'undefined');
  assert.equal(lines, ['internal error on GET /p: TypeError: x is undefined']);
});

er.run();
