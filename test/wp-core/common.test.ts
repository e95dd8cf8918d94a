// The wp/v2 routes' shared pieces: core's parameter checks and the collection headers.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WpParams, asInteger, collectionResult, parseList } from '../../src/wp-core/common.ts';
import { phpUrlencode } from '../../src/api/representation/envelope.ts';
import { CalendarError } from '../../src/api/wordpress/errors.ts';

const common = suite('wp-core :: common');

common('asInteger and parseList :: rest_is_integer and wp_parse_list', () => {
  assert.equal(
    [asInteger(3), asInteger('12'), asInteger(' -4 '), asInteger('1.5'), asInteger('x'), asInteger(2.5)],
    [3, 12, -4, undefined, undefined, undefined],
  );
  assert.equal(parseList('1, 2 3,,4'), ['1', '2', '3', '4']);
  assert.equal(parseList([1, '2']), [1, '2']);
  assert.is(parseList({}), undefined);
});

common('WpParams :: collection defaults, limits and every problem named at once', () => {
  assert.equal(new WpParams({}).collection(), { context: 'view', page: 1, perPage: 10, search: undefined });
  const p = new WpParams({ page: '0', per_page: '101', context: 'full', include: '1,a', hide_empty: 'maybe' });
  p.collection();
  p.integers('include');
  p.boolean('hide_empty');
  try {
    p.check();
    assert.unreachable('should throw');
  } catch (e) {
    assert.instance(e, CalendarError);
    const err = e as CalendarError;
    assert.is(err.code, 'rest_invalid_param');
    assert.equal(Object.keys(err.data.params as object).sort(), [
      'context',
      'hide_empty',
      'include',
      'page',
      'per_page',
    ]);
  }
  assert.equal(new WpParams({ include: '' }).integers('include'), []);
});

common('collectionResult :: X-WP-Total, X-WP-TotalPages and a Link header with page set in place', () => {
  const r = collectionResult(['{"id":1}'], 25, 10, 2, 'http://x/wp-json/wp/v2/tags', {
    per_page: '10',
    page: '2',
    search: 'a b',
  });
  assert.is(r.body, '[{"id":1}]');
  assert.is(r.headers['X-WP-Total'], '25');
  assert.is(r.headers['X-WP-TotalPages'], '3');
  assert.is(
    r.headers.Link,
    '<http://x/wp-json/wp/v2/tags?per_page=10&page=1&search=a+b>; rel="prev", <http://x/wp-json/wp/v2/tags?per_page=10&page=3&search=a+b>; rel="next"',
  );
  const empty = collectionResult([], 0, 10, 1, 'http://x/t', {});
  assert.equal([empty.body, empty.headers['X-WP-TotalPages'], empty.headers.Link], ['[]', '0', undefined]);
  // past the last page: the previous link points at the last page
  assert.match(collectionResult([], 5, 10, 4, 'http://x/t', {}).headers.Link!, /page=1>; rel="prev"$/);
});

common('phpUrlencode :: as PHP urlencode', () => {
  assert.is(phpUrlencode('2031-01-01 00:00:00'), '2031-01-01+00%3A00%3A00');
  assert.is(phpUrlencode('a,b'), 'a%2Cb');
  assert.is(phpUrlencode("it's ~(x)*!"), 'it%27s+%7E%28x%29%2A%21');
  assert.is(phpUrlencode('café'), 'caf%C3%A9');
  assert.is(phpUrlencode('plain-text_1.2'), 'plain-text_1.2');
});

common.run();
