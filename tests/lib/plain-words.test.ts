/**
 * Every validation path of the human service's inputs says, for every field, what it accepts in plain
 * words (issue 26: no "Expected number but received", no "must be claim: …", no "Expected never"): each
 * field of each input schema (REST bodies, the MCP tools' argument objects, each capability's spec,
 * webhook endpoints) is given a value of the wrong type and, where it has bounds, one out of them; the
 * message must name the field in quotes, say what it accepts and what was sent, in words.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as v from 'valibot';
import { CAPABILITIES } from '../../lib/human/capabilities.ts';
import { CancelBody, DisputeBody, ListInput, OrderBody, QuoteBody } from '../../lib/human/inputs.ts';
import { validateInput } from '../../lib/human/validate-input.ts';
import { DomainError } from '../../lib/domain-error.ts';
import { EndpointBody, EndpointChanges } from '../../lib/webhooks/inputs.ts';
import { accepts, describeValue } from '../../lib/plain-words.ts';

const location = { country_iso: 'FR', city_slug: 'paris' };
const SCHEMAS: Array<[string, v.GenericSchema, Record<string, unknown>]> = [
  ['quote', QuoteBody, { capability: 'human.verify', location, sla: 'standard' }],
  [
    'order',
    OrderBody,
    {
      capability: 'human.verify',
      spec: { claim: 'Open on Sundays', subject: 'A bakery' },
      location,
      sla: 'express',
      max_price_cents: 2000,
      quote_id: 'qt_abc.def',
      metadata: { order: '1' },
      client_reference: 'row 1',
    },
  ],
  ['cancel', CancelBody, { reason: 'too_slow' }],
  ['dispute', DisputeBody, { reason: 'wrong_answer', statement: 'It was closed when I went myself.' }],
  [
    'list_tasks',
    ListInput,
    {
      status: ['pending'],
      capability: 'human.verify',
      client_reference: 'r',
      metadata: { key: 'k', value: 'v' },
      created_after: '2026-01-01T00:00:00Z',
      created_before: '2026-02-01T00:00:00Z',
      limit: 10,
      cursor: 'abc',
    },
  ],
  ['webhook endpoint', EndpointBody, { url: 'https://example.org/x', event_types: ['*'], description: 'd' }],
  [
    'webhook changes',
    EndpointChanges,
    { url: 'https://example.org/x', event_types: ['*'], description: 'd', enabled: true },
  ],
  ['human.verify spec', CAPABILITIES['human.verify']!.spec, { claim: 'c', subject: 's' }],
  ['human.photo spec', CAPABILITIES['human.photo']!.spec, { subject: 's', address: 'a', instructions: 'i' }],
  [
    'human.document_check spec',
    CAPABILITIES['human.document_check']!.spec,
    { document: 'd', address: 'a', questions: 'q', pick_up: true },
  ],
];

/** Values of the wrong type, and out of bounds, for a value that was valid. */
function badValues(valid: unknown): unknown[] {
  if (typeof valid === 'string') return [12345, true, null, 'x'.repeat(5000), '\u0000'];
  if (typeof valid === 'number') return ['2000', 1.5, -1, 1e12, null];
  if (typeof valid === 'boolean') return ['yes', 1];
  if (Array.isArray(valid)) return ['text', [12345]];
  return ['text', 7, []];
}

const JARGON = /Expected|received|Invalid type|Invalid key|never|must be must|\bundefined\b|\[object/;

function messageOf(schema: v.GenericSchema, input: unknown): string | null {
  try {
    validateInput(schema, input);
    return null;
  } catch (err) {
    assert.ok(err instanceof DomainError);
    return err.message;
  }
}

test('every field of every input: its name, what it accepts and what was sent, in plain words', () => {
  let checked = 0;
  for (const [name, schema, valid] of SCHEMAS) {
    assert.equal(messageOf(schema, valid), null, `${name}: the example is valid`);
    const fields: Array<[string[], unknown]> = [];
    const walk = (path: string[], value: unknown) => {
      fields.push([path, value]);
      if (value && typeof value === 'object' && !Array.isArray(value))
        for (const [k, inner] of Object.entries(value)) walk([...path, k], inner);
    };
    for (const [k, value] of Object.entries(valid)) walk([k], value);
    for (const [path, value] of fields) {
      for (const bad of badValues(value)) {
        const input = structuredClone(valid);
        let at: Record<string, unknown> = input;
        for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
        at[path.at(-1)!] = bad;
        const message = messageOf(schema, input);
        if (message === null) continue; // a value the field accepts (e.g. 1.5 where any number is fine)
        checked++;
        const where = `${name} ${path.join('.')} = ${JSON.stringify(bad)?.slice(0, 30)}`;
        assert.doesNotMatch(message, JARGON, `${where}: ${message}`);
        assert.match(message, new RegExp(`'${path[0]}`), `${where} names the field: ${message}`);
        assert.match(message, / give /, `${where} says what is accepted: ${message}`);
      }
    }
  }
  assert.ok(checked > 150, `${checked} bad values checked`);
});

test('accepts() and describeValue() in words, for the schema shapes the inputs use', () => {
  const cases: Array<[v.GenericSchema, string]> = [
    [v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000_000)), 'a whole number from 1 to 10,000,000'],
    [v.pipe(v.number(), v.minValue(0)), 'a number at least 0'],
    [v.pipe(v.string(), v.minLength(20), v.maxLength(2000)), 'a text of 20 to 2000 characters'],
    [v.pipe(v.string(), v.maxLength(200)), 'a text of at most 200 characters'],
    [v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, 'two upper-case letters, e.g. FR')), 'two upper-case letters, e.g. FR'],
    [v.picklist(['standard', 'express']), 'one of: standard, express'],
    [v.optional(v.boolean()), 'true or false'],
    [v.nullable(v.pipe(v.string(), v.maxLength(5))), 'a text of at most 5 characters, or null'],
    [v.pipe(v.array(v.string()), v.minLength(1), v.maxLength(20)), 'a list of 1 to 20 items, each a text'],
    [v.pipe(v.string(), v.isoTimestamp()), 'an ISO 8601 instant with a zone, e.g. 2026-11-22T10:00:00Z'],
  ];
  for (const [schema, words] of cases) assert.equal(accepts(schema), words);
  assert.deepEqual(['2000', 12, null, [1, 2], { a: 1 }, true].map(describeValue), [
    'the text "2000"',
    'the number 12',
    'null',
    'a list of 2 items',
    'an object',
    'true',
  ]);
});

test("the issue's three messages are gone", () => {
  const order = SCHEMAS[1]![2];
  assert.equal(
    messageOf(OrderBody, { ...order, max_price_cents: '2000' }),
    `Invalid field 'max_price_cents': give a whole number from 1 to 10,000,000 (got the text "2000").`,
  );
  assert.equal(
    messageOf(CAPABILITIES['human.verify']!.spec, { claim: '', subject: 's' }),
    `Invalid field 'claim': give a text of 1 to 500 characters (got the text "").`,
  );
  assert.equal(
    messageOf(QuoteBody, { capability: 'human.verify', location, foo: 1 }),
    `Unknown field 'foo'. Accepted: capability, location, sla.`,
  );
});
