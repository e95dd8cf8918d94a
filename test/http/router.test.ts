import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Router, splitTarget } from '../../src/http/router.ts';

const split = suite('router :: request target');

split('path and query are what URL makes of the target', () => {
  const targets = [
    '/wp-json/tribe/events/v1/events',
    '/wp-json/tribe/events/v1/events?categories=1,28&start_date=2030-07-06',
    '/wp-json/tribe/events/v1/events?search=cr%C3%A8me+br%C3%BBl%C3%A9e&a=1&a=2',
    '/wp-json/tribe/events/v1/events/by-slug/a.b%2Fc',
    '/wp-json/tribe/events/v1/../v1/events?x=1',
    '/wp-json/tribe/./events/v1/%2e%2E/v1/events',
    '/wp-json\\tribe/events/v1/events',
    '/wp-json/tribe/events/v1/events/by-slug/caf\u00e9?q=\u00e9 "x"',
    '/wp-json/tribe/events/v1/events?x=1#frag',
    '/wp-json/tribe/events/v1/events/<a>{b}`c`',
    '/',
  ];
  for (const t of targets) {
    const url = new URL(t, 'http://h');
    const got = splitTarget(t);
    assert.is(got.path, url.pathname, `~> path of ${t}`);
    assert.equal([...new URLSearchParams(got.search)], [...url.searchParams], `~> query of ${t}`);
  }
});

split.run();

const match = suite('router :: matching');

match('the first entry of the method whose RegExp matches answers, with its named groups', async () => {
  const r = new Router<string, string>();
  r.add('GET', /^\/a\/(?<id>\d+)$/, (req, ctx) => `a ${req.params.id} ${req.search} ${ctx} ${req.route}`, '/a/:id');
  r.add('GET', /^\/a\/\d+$/, () => 'second', '/a/:id');
  r.add('POST', /^\/a\/(?<id>\d+)$/, () => 'post', '/a/:id');
  assert.is(await r.fetch('GET', '/a/12?x=1', 'ctx'), 'a 12 x=1 ctx /a/:id');
  assert.is(await r.fetch('POST', '/a/12', 'ctx'), 'post');
  assert.is(await r.fetch('PUT', '/a/12', 'ctx'), undefined);
  assert.is(await r.fetch('GET', '/a/b', 'ctx'), undefined);
  assert.equal(
    r.entries.map((e) => `${e.method} ${e.path}`),
    ['GET /a/:id', 'GET /a/:id', 'POST /a/:id'],
  );
});

match('a handler that answers undefined hands the request on to the next match', async () => {
  const r = new Router<null, string>();
  r.add('GET', /^\/feed$/, (req) => (req.search.includes('ical=1') ? 'feed' : undefined), '/feed');
  r.add('GET', /^\/.*$/, async () => 'page', '/*');
  assert.is(await r.fetch('GET', '/feed?ical=1', null), 'feed');
  assert.is(await r.fetch('GET', '/feed', null), 'page');
});

match.run();
