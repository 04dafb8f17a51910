/**
 * Rule 3, per scenario (SPEC): while a scenario has no validated published run, every response for it
 * has status `withheld`, `metrics` and `data.results` null and `withheld` saying why, and register facts
 * (the rest of `data`, `records` included) are served. Two ways in: the register loaded alone (what
 * `demo --no-publish` does), and one scenario unpublished next to published ones. notExpected checks
 * make sure no figure leaks anywhere: no Figure field, and none of the stored numbers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { STATE_TTL_MS } from '../../../db/impact/queries/state.ts';
import { figuresIn, startImpactServer, type ImpactServer } from './harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** [path, a check on the register facts that must still be there] */
const PATHS: Array<[string, (d: Json) => void]> = [
  ['/', (d) => assert.equal(d.figures_published, false)],
  ['/products', (d) => assert.equal(d.count, 48)],
  ['/products?sort=toll', (d) => assert.equal(d.sort, 'name', 'no order by figures while withheld')],
  [
    '/product/smartphone',
    (d) => {
      assert.equal(d.bill_of_materials.length, 10, 'the published register: 10 lines, 6 of them cited');
      assert.equal(d.bill_of_materials.filter((l: Json) => l.provenance.basis !== 'illustrative').length, 6);
      assert.ok(d.trace && d.raw_inputs.length > 0 && d.industries.length > 0);
    },
  ],
  ['/product/smartphone/contributions?method=mrio', (d) => assert.equal(d.method, 'mrio')],
  ['/product/smartphone/explain', (d) => assert.equal(d.slug, 'smartphone')],
  ['/compare?a=smartphone&b=laptop', (d) => assert.equal(d.b.slug, 'laptop')],
  ['/spend?category=07', (d) => assert.equal(d.categories.length, 5)],
  ['/material/cobalt', (d) => assert.ok(d.records.production.countries.length > 0)],
  ['/conflict/drc-east', (d) => assert.ok(d.records.ledger.deaths_best > 0 && d.attribution.periods.length > 0)],
  ['/country/COD', (d) => assert.ok(d.records.harm_counted.deaths > 0)],
  ['/channel/C1', (d) => assert.ok(d.records.deaths > 0)],
  ['/scenarios', (d) => assert.equal(d.scenarios.length, 5)],
  ['/runs', (d) => assert.deepEqual(d.runs, [], 'the list is empty while withheld')],
  [
    '/methodology',
    (d) =>
      assert.deepEqual(
        d.versions.map((v: Json) => v.code),
        ['v1', 'v2', 'v3'],
      ),
  ],
  ['/sources', (d) => assert.equal(d.sources.length, 25)],
  ['/search?q=cobalt', (d) => assert.ok(d.count > 0)],
];

/** Keys only a figure (or a result made of figures) has. */
const FIGURE_FIELDS = [
  '"display":',
  '"central":',
  '"median":',
  '"grade":',
  '"deaths_per_unit":',
  '"breakdowns":',
  '"reach":',
  '"p_a_greater":',
];

function assertWithheld(
  res: { status: number; json: Json; text: string; headers: Headers },
  scenario: string,
  where: string,
) {
  assert.equal(res.status, 200, `${where}: ${res.text}`);
  const b = res.json;
  assert.equal(b.status, 'withheld', where);
  assert.equal(b.scenario, scenario, where);
  assert.equal(b.metrics, null, where);
  assert.equal(b.data.results, null, where);
  assert.equal(b.run, null, where);
  assert.equal(b.withheld.code, 'no_published_run', where);
  assert.match(b.withheld.reason, new RegExp(scenario), where);
  assert.deepEqual(b.sources, [], where);
  assert.equal(b.citation.run_id, null, where);
  assert.equal(b.methodology_version, 'v3');
  assert.equal(b.data_version, 'published-2026.5');
  assert.ok(
    !b.caveats.some((c: Json) => ['illustrative', 'not_measured', 'illustrative_inputs'].includes(c.code)),
    `${where}: the published register, and no figure to speak of`,
  );
  assert.equal(res.headers.get('cache-control'), 'public, no-cache', `${where}: revalidate while withheld`);
  assert.match(res.headers.get('etag')!, /^"w-/);
  assert.deepEqual(figuresIn(b), [], `${where}: no Figure object`);
  for (const field of FIGURE_FIELDS) assert.ok(!res.text.includes(field), `${where}: ${field} must not appear`);
}

describe('the register alone (demo --no-publish): everything withheld', () => {
  let server: ImpactServer;
  before(async () => {
    server = await startImpactServer({ published: false, inProcess: true });
  });
  after(() => server.cleanup());

  for (const [path, facts] of PATHS) {
    test(path, async () => {
      const res = await server.api(path);
      assertWithheld(res, 'S-MAX', path);
      facts(res.json.data);
    });
  }

  test('every scenario is withheld; a run id is 404 (none was published)', async () => {
    for (const scenario of ['S-EVID', 'S-RES', 'S-ARMS', 'S-CONS'])
      assertWithheld(await server.api(`/product/steel?scenario=${scenario}`), scenario, scenario);
    assert.equal((await server.api('/runs/1')).status, 404);
  });
});

describe('one scenario unpublished next to published ones', () => {
  let server: ImpactServer;
  let stored: string[];
  before(async () => {
    server = await startImpactServer({ inProcess: true });
    const db = server.app.db;
    // Every number run 3 (S-RES) stored about the products and materials asked for below, as JSON prints it.
    const numbers = db
      .prepare(
        `SELECT low, median, high, mean FROM impact_figures WHERE run_id = 3 AND subject_key IN ('smartphone', 'laptop', 'cobalt')
      UNION ALL SELECT low, median, high, mean FROM impact_contributions WHERE run_id = 3 AND product = 'smartphone'
      UNION ALL SELECT low, median, high, mean FROM impact_reach WHERE run_id = 3 AND subject_key IN ('cobalt', 'drc-east', 'COD', 'C1')
      UNION ALL SELECT low * 1000, median * 1000, high * 1000, mean * 1000 FROM impact_spend WHERE run_id = 3`,
      )
      .raw()
      .all() as number[][];
    stored = [
      ...new Set(
        numbers
          .flat()
          .filter((x) => x !== 0)
          .map((x) => JSON.stringify(x)),
      ),
    ];
    assert.ok(stored.length > 100);
    db.prepare("DELETE FROM impact_current_runs WHERE scenario = 'S-RES'").run();
  });
  after(() => server.cleanup());

  for (const [path, facts] of PATHS.filter(
    ([p]) => !['/', '/runs', '/methodology', '/sources', '/search?q=cobalt', '/scenarios'].includes(p),
  )) {
    test(`${path} with scenario S-RES`, async () => {
      const res = await server.api(path + (path.includes('?') ? '&' : '?') + 'scenario=S-RES');
      assertWithheld(res, 'S-RES', path);
      facts(res.json.data);
      const leaked = stored.filter((n) => res.text.includes(n));
      assert.deepEqual(leaked, [], `${path}: stored numbers of the withheld run must not appear`);
      const published = await server.api(path);
      assert.equal(published.json.status, 'published', `${path}: S-MAX is still published`);
    });
  }

  test('a product lists the withheld scenario with no run and no figure; the run stays citable', async () => {
    const product = (await server.api('/product/smartphone')).json;
    const res = product.data.results.scenarios.find((s: Json) => s.code === 'S-RES');
    assert.deepEqual(res, { code: 'S-RES', name: res.name, run: null, deaths_per_unit: null });
    const scenarios = (await server.api('/scenarios')).json.data.scenarios;
    assert.equal(scenarios.find((s: Json) => s.code === 'S-RES').run, null);
    const run = await server.api('/runs/3');
    assert.equal(run.status, 200, 'a run that was published stays readable by id');
    assert.equal(run.json.status, 'withheld');
    assert.equal(run.json.data.run.current, false);
    assert.equal(
      (await server.api('/runs')).json.data.runs.length,
      5,
      'S-MAX is published: every published run is listed',
    );
  });

  test(`publishing a run is served within ${STATE_TTL_MS} ms, without a restart`, async () => {
    server.app.db
      .prepare(
        "INSERT INTO impact_current_runs (scenario, run_id, published_at) VALUES ('S-RES', 3, '2026-11-22T10:00:00.000Z')",
      )
      .run();
    await sleep(STATE_TTL_MS + 100);
    const res = await server.api('/product/steel?scenario=S-RES');
    assert.equal(res.json.status, 'published');
    assert.equal(res.json.run.id, 3);
  });
});
