/**
 * The public catalogue and quotes: capabilities with JSON Schemas that agree with what the server
 * enforces (checked by an independent validator, Ajv), prices and live geographies, coverage, and
 * quotes: an exact price, or a refusal with served alternatives; bad quote bodies are named 400s.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import { checkLedgerAfterEach, startHumanServer, verifyOrder, type HumanServer } from './harness.ts';

let server: HumanServer;
before(async () => {
  server = await startHumanServer({ inProcess: true });
});
after(() => server?.cleanup());
checkLedgerAfterEach(() => server);

const quote = (body: unknown) => server.call('POST', '/quote', null, body);

describe('capabilities and coverage', () => {
  test('three capabilities, each with schemas, evidence rule, SLAs, prices and live geographies', async () => {
    const res = await server.call('GET', '/capabilities', null);
    assert.equal(res.status, 200);
    const ids = res.json.data.map((c: { id: string }) => c.id);
    assert.deepEqual(ids, ['human.verify', 'human.photo', 'human.document_check']);
    const verify = res.json.data[0];
    assert.deepEqual(verify.spec_schema.required, ['claim', 'subject']);
    assert.equal(verify.spec_schema.additionalProperties, false);
    assert.deepEqual(verify.result_schema.properties.verdict.enum, ['confirmed', 'refuted', 'inconclusive']);
    assert.deepEqual(
      verify.slas.map((s: { code: string }) => s.code),
      ['standard', 'express'],
    );
    assert.ok(
      verify.prices.some(
        (p: { location: { city_slug: string }; sla: string; price_cents: number }) =>
          p.location.city_slug === 'paris' && p.sla === 'express' && p.price_cents === 3400,
      ),
    );
    assert.ok(verify.live_geographies.some((g: { city_slug: string }) => g.city_slug === 'lisbon'));
    assert.ok(!verify.live_geographies.some((g: { city_slug: string }) => g.city_slug === 'versailles'));
    const one = await server.call('GET', '/capabilities/human.document_check', null);
    assert.equal(one.json.data.evidence.documents, true);
    const unknown = await server.call('GET', '/capabilities/human.teleport', null);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.error.code, 'not_found');
  });

  test('each spec_schema agrees with the server: what Ajv accepts is ordered, what it refuses is a 400', async () => {
    const { key } = server.account('test');
    const caps = (await server.call('GET', '/capabilities', null)).json.data;
    const ajv = new Ajv2020.default({ strict: false });
    const samples: Record<string, Array<[unknown, boolean]>> = {
      'human.verify': [
        [{ claim: 'open on Sundays', subject: 'bakery' }, true],
        [{ claim: 'x' }, false],
        [{ claim: 'x', subject: 'y', extra: 1 }, false],
        [{ claim: '', subject: 'y' }, false],
      ],
      'human.photo': [
        [{ subject: 'the door' }, true],
        [{ subject: 'door', instructions: 'from the left' }, true],
        [{ subject: 'door', angle: 'left' }, false],
      ],
      'human.document_check': [
        [{ document: 'permit', address: '1 Calle Mayor' }, true],
        [{ document: 'permit', address: 'x', pick_up: 'yes' }, false],
        [{ document: 'permit' }, false],
      ],
    };
    const where: Record<string, { country_iso: string; city_slug: string }> = {
      'human.verify': { country_iso: 'FR', city_slug: 'paris' },
      'human.photo': { country_iso: 'ES', city_slug: 'madrid' },
      'human.document_check': { country_iso: 'ES', city_slug: 'madrid' },
    };
    for (const cap of caps) {
      const validate = ajv.compile(cap.spec_schema);
      for (const [spec, valid] of samples[cap.id]!) {
        assert.equal(validate(spec), valid, `Ajv on ${cap.id} ${JSON.stringify(spec)}`);
        const res = await server.order(key, {
          capability: cap.id,
          spec,
          location: where[cap.id],
          max_price_cents: 100_000,
        });
        assert.equal(res.status, valid ? 201 : 400, `server on ${cap.id} ${JSON.stringify(spec)}: ${res.text}`);
      }
    }
  });

  test('coverage lists live cities only, with what each serves', async () => {
    const res = await server.call('GET', '/coverage', null);
    const countries = res.json.data.countries.map((c: { country_iso: string }) => c.country_iso);
    assert.deepEqual(countries.sort(), ['DE', 'ES', 'FR', 'PT']);
    const es = res.json.data.countries.find((c: { country_iso: string }) => c.country_iso === 'ES');
    const valencia = es.cities.find((c: { city_slug: string }) => c.city_slug === 'valencia');
    assert.deepEqual(valencia.capabilities.find((c: { capability: string }) => c.capability === 'human.verify').slas, [
      'standard',
    ]);
  });
});

describe('quotes', () => {
  test('an exact price, the due time and an expiry', async () => {
    const res = await quote({
      capability: 'human.verify',
      location: { country_iso: 'DE', city_slug: 'berlin' },
      sla: 'express',
    });
    assert.equal(res.status, 200);
    const q = res.json.data;
    assert.equal(q.status, 'quoted');
    assert.equal(q.price_cents, 3000);
    assert.equal(q.currency, 'EUR');
    assert.equal(Date.parse(q.due_at) - server.clock.ms, 4 * 3_600_000);
    assert.equal(Date.parse(q.expires_at) - server.clock.ms, 15 * 60_000);
    assert.match(q.quote_id, /^qt_/);
    assert.equal(
      (await quote({ capability: 'human.verify', location: { country_iso: 'DE', city_slug: 'berlin' } })).json.data.sla,
      'standard',
      'standard by default',
    );
  });

  const refusals: Array<[string, Record<string, unknown>, string, string[]]> = [
    [
      'a known city that is not live: the nearest live ones',
      { location: { country_iso: 'FR', city_slug: 'versailles' } },
      'location_not_served',
      ['paris', 'lyon'],
    ],
    [
      "an unknown city: the country's live cities first",
      { location: { country_iso: 'ES', city_slug: 'cuenca' } },
      'location_not_served',
      ['madrid'],
    ],
    [
      'a country with no live city: the nearest elsewhere',
      { location: { country_iso: 'IT', city_slug: 'milan' } },
      'location_not_served',
      ['lyon', 'munich'],
    ],
    [
      'an SLA not served there: the other SLAs there, then the nearest with it',
      { location: { country_iso: 'ES', city_slug: 'valencia' }, sla: 'express' },
      'sla_not_served',
      ['valencia', 'barcelona'],
    ],
  ];
  for (const [name, over, reason, first] of refusals) {
    test(`refused: ${name}`, async () => {
      const res = await quote({ capability: 'human.verify', ...over });
      assert.equal(res.status, 200);
      const q = res.json.data;
      assert.equal(q.status, 'refused');
      assert.equal(q.reason, reason);
      assert.ok(q.message.length > 20);
      assert.deepEqual(
        q.alternatives.slice(0, first.length).map((a: { location: { city_slug: string } }) => a.location.city_slug),
        first,
      );
      for (const alt of q.alternatives) {
        const check = await quote({ capability: 'human.verify', location: alt.location, sla: alt.sla });
        assert.equal(check.json.data.status, 'quoted', `alternative ${alt.location.city_slug}/${alt.sla} is served`);
        assert.equal(check.json.data.price_cents, alt.price_cents);
      }
    });
  }

  const bad: Array<[string, unknown, RegExp]> = [
    [
      'an unknown capability',
      { capability: 'human.teleport', location: { country_iso: 'FR', city_slug: 'paris' } },
      /Unknown capability/,
    ],
    [
      'an unknown sla',
      { capability: 'human.verify', location: { country_iso: 'FR', city_slug: 'paris' }, sla: 'yesterday' },
      /Unknown sla 'yesterday'/,
    ],
    ['no location', { capability: 'human.verify' }, /Missing required field 'location'/],
    [
      'a three-letter country',
      { capability: 'human.verify', location: { country_iso: 'FRA', city_slug: 'paris' } },
      /location.country_iso/,
    ],
    [
      'an unknown field',
      { capability: 'human.verify', location: { country_iso: 'FR', city_slug: 'paris' }, max_price_cents: 10 },
      /Unknown field 'max_price_cents'/,
    ],
    ['a spec (quotes take none)', { ...verifyOrder(), max_price_cents: undefined }, /Unknown field 'spec'/],
  ];
  for (const [name, body, message] of bad) {
    test(`a bad quote: ${name}`, async () => {
      const res = await quote(body);
      assert.equal(res.status, 400);
      assert.equal(res.json.error.code, 'invalid_request');
      assert.match(res.json.error.message, message);
    });
  }
});
