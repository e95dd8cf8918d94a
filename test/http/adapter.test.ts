import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { rewriteTarget, effectiveMethod, filterFields, errorReply } from '../../src/http/adapter.ts';
import { fail } from '../../src/api/wordpress/errors.ts';

const rw = suite('adapter :: rest_route and _method');

rw('?rest_route= becomes the pretty path, other parameters kept', () => {
  assert.equal(rewriteTarget('/?rest_route=/tribe/events/v1/events&page=2', '/wp-json'), {
    url: '/wp-json/tribe/events/v1/events?page=2',
    query: 'page=2',
  });
  assert.equal(
    rewriteTarget('/index.php?rest_route=%2Ftribe%2Fevents%2Fv1%2Fvenues%2F3', '/wp-json').url,
    '/wp-json/tribe/events/v1/venues/3',
  );
  assert.equal(rewriteTarget('/?rest_route=/', '/wp-json').url, '/wp-json/');
});

rw('a slug with reserved characters survives the rewrite encoded', () => {
  assert.is(
    rewriteTarget('/?rest_route=/tribe/events/v1/events/by-slug/a%3Fb', '/wp-json').url,
    '/wp-json/tribe/events/v1/events/by-slug/a%3Fb',
  );
});

rw('pretty paths and other pages are untouched', () => {
  assert.equal(rewriteTarget('/wp-json/tribe/events/v1/events?rest_route=/x', '/wp-json'), {
    url: '/wp-json/tribe/events/v1/events?rest_route=/x',
    query: 'rest_route=/x',
  });
  assert.equal(rewriteTarget('/wp-json/', '/wp-json'), { url: '/wp-json/', query: '' });
});

rw('method override: _method first, then the header', () => {
  assert.is(effectiveMethod('POST', 'a=1&_method=delete', undefined), 'DELETE');
  assert.is(effectiveMethod('POST', '', 'PUT'), 'PUT');
  assert.is(effectiveMethod('POST', '_method=PATCH', 'PUT'), 'PATCH');
  assert.is(effectiveMethod('GET', 'x_method=DELETE', undefined), 'GET');
});

rw.run();

// ---

const ff = suite('adapter :: _fields');

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

const er = suite('adapter :: errorReply');

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
