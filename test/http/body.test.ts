import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { setParam, finishParams, parseUrlEncoded, paramsFromQuery, mergeBody, bodyKind } from '../../src/http/body.ts';
import { CalendarError } from '../../src/api/wordpress/errors.ts';

const parse = (qs: string) => finishParams(parseUrlEncoded(qs));

const php = suite('body :: PHP bracket syntax');

php('plain keys; a repeated plain key keeps the last value', () => {
  assert.equal(parse('a=1&b=x+y&a=2'), { a: '2', b: 'x y' });
});

php('name[] appends and becomes a list', () => {
  assert.equal(parse('categories[]=3&categories[]=4'), { categories: ['3', '4'] });
});

php('name[key] makes an object', () => {
  assert.equal(parse('venue[venue]=X&venue[city]=Paris'), { venue: { venue: 'X', city: 'Paris' } });
});

php('nested lists of objects', () => {
  assert.equal(parse('organizer[0][organizer]=A&organizer[1][id]=3&organizer[2][organizer]=C'), {
    organizer: [{ organizer: 'A' }, { id: '3' }, { organizer: 'C' }],
  });
});

php('sparse integer keys stay an object', () => {
  assert.equal(parse('a[2]=x&a[5]=y'), { a: { 2: 'x', 5: 'y' } });
});

php('[] after explicit indexes continues from the largest', () => {
  assert.equal(parse('a[0]=x&a[1]=y&a[]=z'), { a: ['x', 'y', 'z'] });
});

php('percent-encoded brackets decode like PHP', () => {
  assert.equal(parse('cost%5B%5D=0%24&cost%5B%5D=20%24'), { cost: ['0$', '20$'] });
});

php('unclosed brackets are taken literally; an empty name is dropped', () => {
  assert.equal(parse('a[b=1&=2'), { 'a[b': '1' });
});

php('__proto__ keys never pollute prototypes', () => {
  const out = parse('__proto__[polluted]=1&a[__proto__][x]=2') as Record<string, unknown>;
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.keys(out), ['a']);
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
});

php('a value then a nested key replaces the scalar', () => {
  assert.equal(parse('a=1&a[b]=2'), { a: { b: '2' } });
});

php('a query record (repeated keys as arrays) in PHP style', () => {
  const q = { 'venue[]': ['1', '2'], status: 'publish', 'x[a]': 'y' };
  assert.equal(finishParams(paramsFromQuery(q)), { venue: ['1', '2'], status: 'publish', x: { a: 'y' } });
});

php('setParam into a bag directly', () => {
  const bag = Object.create(null);
  setParam(bag, 'a[][b]', '1');
  setParam(bag, 'a[][b]', '2');
  assert.equal(finishParams(bag), { a: [{ b: '1' }, { b: '2' }] });
});

php.run();

// ---

const merge = suite('body :: mergeBody');

const q = (s: string) => parseUrlEncoded(s);
const codeOf = (fn: () => unknown): [string, number] => {
  try {
    fn();
  } catch (e) {
    assert.instance(e, CalendarError);
    return [(e as CalendarError).code, (e as CalendarError).status];
  }
  throw new Error('~> expected a CalendarError');
};

merge('content types', () => {
  assert.is(bodyKind('application/json'), 'json');
  assert.is(bodyKind('application/json; charset=utf-8'), 'json');
  assert.is(bodyKind('application/merge-patch+json'), 'json');
  assert.is(bodyKind('application/x-www-form-urlencoded;charset=UTF-8'), 'form');
  assert.is(bodyKind('text/plain'), 'unsupported');
  assert.is(bodyKind(undefined), 'none');
});

merge('JSON body wins over the query', () => {
  const out = mergeBody(
    q('title=q&page=2'),
    Buffer.from('{"title":"body","venue":{"venue":"X"},"tags":[1,2]}'),
    'application/json',
  );
  assert.equal(out, { title: 'body', page: '2', venue: { venue: 'X' }, tags: [1, 2] });
});

merge('form body wins over the query', () => {
  const out = mergeBody(
    q('title=q&x=1'),
    Buffer.from('title=form&categories[]=3'),
    'application/x-www-form-urlencoded',
  );
  assert.equal(out, { title: 'form', x: '1', categories: ['3'] });
});

merge('empty body or JSON null: query only', () => {
  assert.equal(mergeBody(q('a=1'), Buffer.alloc(0), 'text/plain'), { a: '1' });
  assert.equal(mergeBody(q('a=1'), Buffer.from('null'), 'application/json'), { a: '1' });
  assert.equal(mergeBody(q('a=1'), null, undefined), { a: '1' });
});

merge('malformed JSON → 400 rest_invalid_json', () => {
  assert.equal(
    codeOf(() => mergeBody(q(''), Buffer.from('{"title":'), 'application/json')),
    ['rest_invalid_json', 400],
  );
});

merge('JSON that is not an object → 400 rest_invalid_json', () => {
  assert.equal(
    codeOf(() => mergeBody(q(''), Buffer.from('[1,2]'), 'application/json')),
    ['rest_invalid_json', 400],
  );
  assert.equal(
    codeOf(() => mergeBody(q(''), Buffer.from('"x"'), 'application/json')),
    ['rest_invalid_json', 400],
  );
});

merge('unsupported content type with a body → 415', () => {
  assert.equal(
    codeOf(() => mergeBody(q(''), Buffer.from('title=x'), 'text/plain')),
    ['rest_unsupported_media_type', 415],
  );
  assert.equal(
    codeOf(() => mergeBody(q(''), Buffer.from('title=x'), undefined)),
    ['rest_unsupported_media_type', 415],
  );
});

merge('JSON __proto__ member is dropped', () => {
  const out = mergeBody(q(''), Buffer.from('{"__proto__":{"x":1},"a":1}'), 'application/json');
  assert.equal(Object.keys(out), ['a']);
  assert.is(({} as Record<string, unknown>).x, undefined);
});

merge.run();
