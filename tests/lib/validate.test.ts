import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as v from 'valibot';
import { HttpError } from '../../lib/http/errors.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import fc from 'fast-check';
import { characters, enumParam, integerParam, parseParams, parseQuery, stringParam } from '../../lib/validate.ts';

const schema = v.object({
  per_page: v.optional(integerParam(1, 100, 'page size')),
  sort: v.optional(enumParam(['a', 'b'] as const, 'order')),
  country: v.optional(
    stringParam({ min: 2, max: 2, pattern: /^[A-Z]{2}$/, accepts: 'a two-letter code', description: 'c' }),
  ),
});
const req = (query: ApiRequest['query'], params: Record<string, string> = {}) =>
  ({ query, params }) as unknown as ApiRequest;

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof HttpError);
    assert.equal(err.status, 400);
    return err.message;
  }
  assert.fail('expected a 400');
};

test('valid parameters are parsed and typed', () => {
  assert.deepEqual(parseQuery(schema, req({ per_page: '20', sort: 'b', country: 'ES' })), {
    per_page: 20,
    sort: 'b',
    country: 'ES',
  });
  assert.deepEqual(parseQuery(schema, req({})), {});
});

test('every refusal names the parameter and what it accepts', () => {
  const cases: Array<[ApiRequest['query'], RegExp]> = [
    [{ per_page: '0' }, /'per_page': must be an integer from 1 to 100 \(got '0'\)/],
    [{ per_page: '101' }, /'per_page': must be an integer from 1 to 100/],
    [{ per_page: '1e2' }, /'per_page'/],
    [{ per_page: '-1' }, /'per_page'/],
    [{ per_page: ' 5' }, /'per_page'/],
    [{ per_page: '99999999999' }, /'per_page'/],
    [{ sort: 'c' }, /'sort': must be one of: a, b/],
    [{ country: 'es' }, /'country': must be a two-letter code/],
    [{ country: '' }, /'country'/],
    [{ bogus: '1' }, /Unknown query parameter 'bogus'\. Accepted parameters: per_page, sort, country/],
    [{ sort: ['a', 'b'] }, /'sort' is given more than once/],
    [{ 'x\u0000y': '1' }, /Unknown query parameter 'x\\u0000y'/],
  ];
  for (const [query, message] of cases)
    assert.match(
      refusal(() => parseQuery(schema, req(query))),
      message,
      JSON.stringify(query),
    );
});

test('path parameters are URL-decoded before validation, and bad encoding is a 400', () => {
  const params = v.object({ id: stringParam({ max: 20, pattern: /^[a-z:/]+$/, accepts: 'an id', description: 'id' }) });
  assert.deepEqual(parseParams(params, req({}, { id: 'eu%3Aa%2Fb' })), { id: 'eu:a/b' });
  assert.match(
    refusal(() => parseParams(params, req({}, { id: '%E0%A4%A' }))),
    /not valid percent-encoding/,
  );
  assert.match(
    refusal(() => parseParams(params, req({}, { id: 'UPPER' }))),
    /'id': must be an id/,
  );
});

test('a missing required parameter is named', () => {
  const required = v.object({ q: stringParam({ max: 5, accepts: 'text', description: 'q' }) });
  assert.match(
    refusal(() => parseQuery(required, req({}))),
    /Missing required query parameter 'q'/,
  );
});

test('characters counts code points as for…of does: pairs as one, lone surrogates as one each', () => {
  const iterated = (s: string) => [...s].length;
  for (const s of ['', 'abc', 'é', '😀', 'a😀b', '\ud800', '\udc00\ud800', '\ud800\udc00\ud800', 'x\udbff\udfff'])
    assert.equal(characters(s), iterated(s), JSON.stringify(s));
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => characters(s) === iterated(s)),
    { numRuns: 2000 },
  );
});

test('a parameter given twice is refused even after an empty first value; one parameter alone is never repeated', () => {
  const one = { url: 'http://localhost/x?per_page=5', query: { per_page: '5' }, params: {} } as unknown as ApiRequest;
  assert.deepEqual(parseQuery(schema, one), { per_page: 5 });
  // itty-router keeps 'x' for 'sort=&sort=x'; the URL still shows the repetition.
  const twice = { url: 'http://localhost/x?sort=&sort=b', query: { sort: 'b' }, params: {} } as unknown as ApiRequest;
  assert.match(
    refusal(() => parseQuery(schema, twice)),
    /'sort' is given more than once/,
  );
});
