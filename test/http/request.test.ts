import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { rewriteTarget, effectiveMethod } from '../../src/http/request.ts';

const rw = suite('request :: rest_route and _method');

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
