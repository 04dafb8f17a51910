/**
 * Who may apply and how much (issue 27), over HTTP on the real demo, each answer checked against the
 * raw records read apart from the importer (data/funding/bdns: tiposBeneficiarios, presupuestoTotal):
 * the applicant filter (several values are an OR; `unstated` adds the calls that say nothing), served
 * types and the source's words, the budget range at its edges, and calls without an amount neither
 * dropped nor read as 0. Bad input by name.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { BDNS_TERMS } from '../../../lib/funding/applicants.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

interface RawDetail {
  codigoBDNS: string;
  presupuestoTotal: number | null;
  tiposBeneficiarios: Array<{ descripcion: string }>;
}
const DATA = join(import.meta.dirname, '..', '..', '..', 'data', 'funding', 'bdns');
const details: RawDetail[] = [
  ...(JSON.parse(readFileSync(join(DATA, 'convocatorias-detalle-20250116-20260715.json'), 'utf8')) as RawDetail[]),
  JSON.parse(readFileSync(join(DATA, 'convocatoria-906115.json'), 'utf8')) as RawDetail,
  JSON.parse(readFileSync(join(DATA, 'convocatoria-923546.json'), 'utf8')) as RawDetail,
];
const GRAN = 'GRAN EMPRESA';
const PF = 'PERSONAS FÍSICAS QUE NO DESARROLLAN ACTIVIDAD ECONÓMICA';
const has = (d: RawDetail, term: string) => d.tiposBeneficiarios.some((t) => t.descripcion === term);

let server: TestServer;
before(async () => {
  server = await startTestServer({
    inProcess: true,
    rateLimits: (l) => ({ ...l, funding: { ...l.funding, anonymous: { perMinute: 100_000, perDay: null } } }),
  });
});
after(() => server.cleanup());

// The calls as served (the contract test checks their shape).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Served = { id: string; budget: number | null } & Record<string, any>;

/** Every call a search finds, walking its cursor. */
async function all(query: string): Promise<Served[]> {
  const out = [];
  let cursor = '';
  for (;;) {
    const res = await server.get(`/funding/v1/search?${query}&per_page=100${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(res.status, 200, res.text);
    out.push(...res.json.data);
    if (!res.json.meta.next_cursor) return out;
    cursor = res.json.meta.next_cursor;
  }
}
const ids = (calls: Array<{ id: string }>) => calls.map((c) => c.id).sort();
const total = async (query: string) => (await server.get(`/funding/v1/search?${query}`)).json.meta.total as number;

test('who may apply: the filter finds exactly the BDNS calls whose detail lists the type; several types are an OR', async () => {
  const gran = details.filter((d) => has(d, GRAN)).map((d) => `bdns:${d.codigoBDNS}`);
  const pf = details.filter((d) => has(d, PF)).map((d) => `bdns:${d.codigoBDNS}`);
  assert.ok(gran.length > 5 && pf.length > 5, 'the real records have both');
  assert.deepEqual(ids(await all('source=bdns&applicant_type=large_company')), [...new Set(gran)].sort());
  assert.deepEqual(ids(await all('source=bdns&applicant_type=individual')), [...new Set(pf)].sort());
  assert.deepEqual(
    ids(await all('source=bdns&applicant_type=large_company,individual')),
    [...new Set([...gran, ...pf])].sort(),
  );
  // Each call serves its types and the source's own words, which map to them.
  for (const call of await all('source=bdns&applicant_type=large_company')) {
    const raw = details.find((d) => `bdns:${d.codigoBDNS}` === call.id)!;
    assert.deepEqual(
      [...call.applicants_stated].sort(),
      [...new Set(raw.tiposBeneficiarios.map((t) => t.descripcion))].sort(),
    );
    const expected = new Set(call.applicants_stated.flatMap((t: string) => BDNS_TERMS[t]!));
    assert.deepEqual([...call.applicant_types].sort(), [...expected].sort(), call.id);
  }
});

test('every call either states who may apply or is found with unstated; EU topics map from their type of action', async () => {
  const everything = await total('per_page=1');
  const stated = await total(
    'applicant_type=individual,self_employed,sme,large_company,non_profit,public_body,research',
  );
  const unstated = await total('applicant_type=unstated');
  assert.equal(stated + unstated, everything);
  assert.equal(await total('applicant_type=research,unstated'), (await total('applicant_type=research')) + unstated);
  const horizon = (await server.get('/funding/v1/calls/eu%3AHORIZON-CL5-2026-09-D4-03')).json.data;
  assert.deepEqual(horizon.applicants_stated, ['HORIZON Innovation Actions']);
  assert.deepEqual(horizon.applicant_types, ['sme', 'large_company', 'non_profit', 'public_body', 'research']);
  const eche = (await server.get('/funding/v1/calls/eu%3AERASMUS-EDU-2022-ECHE-CERT-FP')).json.data;
  assert.deepEqual(eche.applicant_types, ['research']);
});

test('budget: the range is inclusive at both edges; calls without an amount are kept (null) or left out, never read as 0', async () => {
  const stated = details.filter((d) => d.presupuestoTotal !== null);
  const amount = stated.map((d) => d.presupuestoTotal!).sort((a, b) => a - b)[Math.floor(stated.length / 2)]!;
  const atLeast = new Set(stated.filter((d) => d.presupuestoTotal! >= amount).map((d) => `bdns:${d.codigoBDNS}`));
  const atMost = new Set(stated.filter((d) => d.presupuestoTotal! <= amount).map((d) => `bdns:${d.codigoBDNS}`));
  const bdnsStated = (calls: Array<{ id: string; budget: number | null }>) =>
    ids(calls.filter((c) => c.budget !== null && c.id.startsWith('bdns:')));

  const min = await all(`budget_min=${amount}&budget_unstated=exclude&source=bdns`);
  assert.deepEqual(ids(min), [...atLeast].sort(), 'budget_min is inclusive');
  assert.ok(min.every((c) => c.budget !== null && c.budget >= amount));
  assert.ok(
    !ids(await all(`budget_min=${amount + 1}&budget_unstated=exclude&source=bdns`)).some(
      (id) => stated.find((d) => `bdns:${d.codigoBDNS}` === id)?.presupuestoTotal === amount,
    ),
  );
  assert.deepEqual(
    ids(await all(`budget_max=${amount}&budget_unstated=exclude&source=bdns`)),
    [...atMost].sort(),
    'budget_max is inclusive',
  );
  assert.deepEqual(
    ids(await all(`budget_min=${amount}&budget_max=${amount}&budget_unstated=exclude&source=bdns`)),
    stated
      .filter((d) => d.presupuestoTotal === amount)
      .map((d) => `bdns:${d.codigoBDNS}`)
      .sort(),
  );

  // The default keeps calls that state no budget, served with budget null; exclude leaves them out.
  const kept = await all(`budget_min=${amount}&source=bdns`);
  const unknown = kept.filter((c) => c.budget === null);
  assert.ok(unknown.length > 1000, 'the BDNS list entries state no amount and are kept');
  assert.deepEqual(bdnsStated(kept), [...atLeast].sort());
  assert.equal(kept.length, atLeast.size + unknown.length);
  // Not read as 0: "at most 0" finds no call that states an amount, and every call that states none.
  const zero = await all('budget_max=0&source=bdns');
  assert.ok(zero.every((c) => c.budget === null));
  assert.equal(zero.length, unknown.length);
  assert.equal(await total('budget_max=0&budget_unstated=exclude'), 0);
  // exclude alone: the calls that state a budget.
  assert.equal(await total('budget_unstated=exclude&source=bdns'), stated.length);
  // With text too (filters decided in memory for the text's matches).
  const text = await all(`q=ayudas&budget_min=${amount}&budget_unstated=exclude`);
  assert.ok(text.length > 0 && text.every((c) => c.budget !== null && c.budget >= amount));
});

test('bad input for the new parameters is a 400 naming the parameter and what it takes', async () => {
  const cases: Array<[string, string, RegExp]> = [
    ['applicant_type=sme,charities', 'applicant_type', /one or more of individual, self_employed/],
    ['applicant_type=', 'applicant_type', /applicant_type/],
    ['applicant_type=SME', 'applicant_type', /one or more of/],
    ['budget_min=-1', 'budget_min', /integer from 0/],
    ['budget_min=1.5', 'budget_min', /integer from 0/],
    ['budget_max=1e6', 'budget_max', /integer from 0/],
    ['budget_min=10&budget_max=9', 'budget_max', /below budget_min 10/],
    ['budget_unstated=maybe', 'budget_unstated', /one of: include, exclude/],
    ['changed_since=2026-02-30', 'changed_since', /calendar date|YYYY-MM-DD/],
    ['changed_since=yesterday', 'changed_since', /YYYY-MM-DD/],
    ['applicant_type=sme&applicant_type=research', 'applicant_type', /more than once/],
  ];
  for (const [query, name, message] of cases) {
    const res = await server.get(`/funding/v1/search?${query}`);
    assert.equal(res.status, 400, query);
    assert.equal(res.json.error, 'bad_request', query);
    assert.match(res.json.message, new RegExp(`'${name}'`), query);
    assert.match(res.json.message, message, `${query}: ${res.json.message}`);
    const feed = await server.get(`/funding/v1/search.atom?${query}`);
    assert.equal(feed.status, 400, `feed ${query}`);
  }
});

test('the export carries who may apply, the award ceiling and the last change', async () => {
  const call = (await server.get('/funding/v1/calls/eu%3AHORIZON-CL5-2026-09-D4-03')).json.data;
  assert.equal(call.award_ceiling, null, 'this real SEDIA hit states no per-grant ceiling');
  assert.equal(call.changed_at, null);
  const csv = (await server.get('/funding/v1/export?format=csv&applicant_type=research&source=eu')).text;
  // /export is pro only: refused without a subscription, as before.
  assert.match(csv, /subscription_required/);
});
