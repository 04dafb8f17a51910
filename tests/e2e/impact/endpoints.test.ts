/**
 * Every endpoint of the impact document with the demo's published runs, table-driven: the envelope
 * (status, scenario, run, versions, metrics, withheld, sources, licence, caveats, citation), the
 * payload's own fields, and every Figure in it (interval ordered, central null exactly when
 * INDICATIVE, the display string at two significant figures). Then what every path shares: HEAD,
 * OPTIONS, 405 with Allow for any other method, ETag and 304, Cache-Control.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { BASE, figuresIn, MATERIAL_BREAKDOWNS, startImpactServer, type ImpactServer } from './harness.ts';

let server: ImpactServer;
before(async () => {
  server = await startImpactServer();
});
after(() => server.cleanup());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

interface Case {
  path: string;
  scenario?: string;
  figures: boolean;
  check: (data: Json, body: Json) => void;
  everyScenario?: boolean;
}

const CASES: Case[] = [
  {
    path: '/',
    figures: false,
    check: (d) => {
      assert.equal(d.figures_published, true);
      assert.equal(d.endpoints.length, 24);
      assert.deepEqual(d.rate_limit, {
        requests: 100,
        per: 'client address and UTC day',
        resets: '00:00 UTC',
        keyed_requests: 10000,
      });
      assert.equal(d.language, 'en');
    },
  },
  {
    path: '/products',
    figures: true,
    check: (d) => {
      assert.equal(d.count, 48);
      assert.equal(d.sort, 'name');
      assert.equal(Object.keys(d.results.figures).length, 48);
      assert.equal(d.results.route, 'material');
    },
  },
  {
    path: '/products?tier=finished&sort=toll',
    figures: true,
    check: (d) => {
      assert.ok(d.products.every((p: Json) => p.tier === 'finished'));
      assert.equal(d.sort, 'toll');
    },
  },
  {
    path: '/products?category=arms&sort=confidence',
    figures: true,
    check: (d) => {
      assert.ok(d.count >= 2 && d.products.every((p: Json) => p.is_arms && p.category.code === 'arms'));
    },
  },
  {
    path: '/products?sort=complete',
    figures: true,
    check: (d) => {
      const c = d.products.map((p: Json) => p.complete);
      assert.deepEqual(
        c,
        [...c].sort((a: boolean, b: boolean) => Number(b) - Number(a)),
      );
    },
  },
  {
    path: '/product/smartphone',
    figures: true,
    everyScenario: true,
    check: (d, b) => {
      assert.equal(d.slug, 'smartphone');
      assert.equal(d.bill_of_materials.length, 10, 'issue 33 adds the cited silver and palladium of the whole phone');
      assert.ok(d.raw_inputs.some((r: Json) => r.key === 'cobalt'));
      assert.ok(
        d.trace.nodes.some((n: Json) => n.parent === 'pcb-assembly'),
        'the trace goes through the main board',
      );
      // Issue 24: the cobalt of the phone's battery is the cited figure (Öko-Institut 2012: 6.3 g), its
      // gold the cited whole-phone range less what the board carries, each line with its provenance.
      const cobalt = d.bill_of_materials.find((l: Json) => l.component.key === 'cobalt');
      assert.equal(cobalt.qty, 6.3);
      assert.equal(cobalt.provenance.basis, 'published');
      assert.ok(cobalt.citations.some((c: Json) => c.use === 'sets' && /Oeko-Institut/.test(c.source)));
      const gold = d.bill_of_materials.find((l: Json) => l.component.key === 'gold');
      assert.deepEqual(
        [gold.qty_range.low, gold.qty_range.high].map((x: number) => Number(x.toFixed(4))),
        [0.025, 0.031],
      );
      assert.equal(gold.provenance.basis, 'derived');
      const glass = d.bill_of_materials.find((l: Json) => l.component.type === 'unmodelled');
      assert.equal(glass.provenance.basis, 'illustrative');
      assert.equal(d.industries[0].role, 'last_stage');
      assert.equal(d.results.scenarios.length, 5);
      assert.equal(d.results.nearest_by_kg.length, 5);
      assert.ok(b.metrics.deaths_per_unit && b.metrics.injuries_per_1000_eur);
    },
  },
  {
    path: '/product/battery-cell-nmc?scenario=S-ARMS',
    scenario: 'S-ARMS',
    figures: true,
    check: (d) => assert.ok(d.used_in.some((u: Json) => u.product.slug === 'laptop')),
  },
  {
    path: '/product/smartphone/contributions',
    figures: true,
    check: (d) => {
      assert.deepEqual(Object.keys(d.results.breakdowns), MATERIAL_BREAKDOWNS);
      assert.equal(d.method, 'material');
    },
  },
  {
    path: '/product/smartphone/contributions?method=mrio&metric=injuries',
    figures: true,
    check: (d) => assert.deepEqual(Object.keys(d.results.breakdowns), ['country', 'channel', 'sector', 'basis']),
  },
  {
    path: '/product/assault-rifle/contributions?type=conflict&scenario=S-ARMS',
    scenario: 'S-ARMS',
    figures: true,
    check: (d) => assert.deepEqual(Object.keys(d.results.breakdowns), ['conflict']),
  },
  {
    path: '/product/smartphone/explain',
    figures: true,
    check: (d) => {
      assert.deepEqual(Object.keys(d.results.routes.material.steps), ['line', 'material', 'country', 'channel']);
      assert.deepEqual(Object.keys(d.results.routes.mrio.steps), ['layer']);
      assert.ok(d.results.quantities.length > 0);
      assert.match(d.results.check, /sum/);
    },
  },
  {
    path: '/compare?a=smartphone&b=laptop',
    figures: true,
    check: (d) => {
      assert.equal(d.a.slug, 'smartphone');
      assert.equal(d.results.pair.samples, 500);
      assert.deepEqual(Object.keys(d.results.pair.by), ['per_unit', 'per_kg', 'per_1000_eur']);
    },
  },
  {
    path: '/spend',
    figures: true,
    check: (d) => {
      assert.equal(d.amount_eur, 1000);
      assert.equal(d.results.rows[0].code, 'all');
      assert.equal(d.results.rows[0].reference, true);
      assert.ok(d.results.left_out.industries.length > 0);
    },
  },
  {
    path: '/spend?category=07-01&amount=49.90',
    figures: true,
    check: (d) => {
      assert.deepEqual(
        d.results.rows.map((r: Json) => r.code),
        ['all', '07-01'],
      );
      assert.equal(d.amount_eur, 49.9);
    },
  },
  {
    path: '/material/cobalt',
    figures: true,
    check: (d) => {
      assert.equal(d.conflict_mineral.flag, false);
      assert.ok(d.records.production.countries.length > 0);
      assert.equal(d.results.deaths_per_tonne, null);
      assert.equal(d.results.reach[0].rank, 0);
    },
  },
  {
    path: '/conflict/drc-east?scenario=S-RES',
    scenario: 'S-RES',
    figures: true,
    check: (d) => {
      // UCDP conflict 283, "DR Congo (Zaire): Government", from the BRD file (issue 24).
      assert.equal(d.ucdp_conflict_id, 283);
      assert.equal(d.ucdp_id_note, null);
      assert.equal(d.name, 'DR Congo (Zaire): Government');
      assert.equal(d.attribution.scenario, 'S-RES');
      assert.ok(d.records.ledger.deaths_best > 0);
      assert.equal(d.records.ledger.events, null, 'battle-related deaths count no events');
      assert.equal(d.provenance.source, 'ucdp-brd');
    },
  },
  {
    path: '/country/cod',
    figures: true,
    check: (d) => {
      assert.equal(d.iso3, 'COD');
      assert.ok(d.records.harm_counted.deaths > 0);
    },
  },
  {
    path: '/channel/c2',
    figures: true,
    check: (d) => {
      assert.equal(d.code, 'C2');
      assert.equal(d.requires_paf, false);
      assert.ok(d.records.deaths > 0);
    },
  },
  {
    path: '/scenarios',
    figures: false,
    check: (d) => {
      assert.deepEqual(
        d.scenarios.map((s: Json) => s.code),
        ['S-MAX', 'S-EVID', 'S-RES', 'S-ARMS', 'S-CONS'],
      );
      assert.ok(d.scenarios.every((s: Json) => Number.isInteger(s.run)));
    },
  },
  {
    path: '/runs',
    figures: false,
    check: (d) => {
      assert.equal(d.runs.length, 5);
      assert.ok(d.runs.every((r: Json) => r.current === true));
    },
  },
  {
    path: '/runs/3',
    scenario: 'S-RES',
    figures: false,
    check: (d) => {
      assert.equal(d.run.id, 3);
      assert.equal(d.gates.length, 7);
      assert.ok(d.gates.every((g: Json) => g.passed));
    },
  },
  {
    path: '/methodology',
    figures: false,
    check: (d) => {
      assert.deepEqual(
        d.versions.map((x: Json) => x.code),
        ['v1', 'v2', 'v3'],
      );
      assert.ok(d.versions.every((x: Json) => /^[0-9a-f]{64}$/.test(x.document_sha256)));
      assert.notEqual(
        d.versions[0].document_sha256,
        d.versions[1].document_sha256,
        'each version hashes its own document',
      );
    },
  },
  {
    path: '/sources',
    figures: false,
    check: (d) => {
      const ilostat = d.sources.find((s: Json) => s.code === 'ilostat');
      assert.equal(ilostat.reuse_open, false, 'the April 2021 extract predates the ILO CC BY 4.0 policy');
      assert.match(ilostat.licence.name, /before the ILO's CC BY 4\.0 policy of 3 May 2023/);
      assert.ok(
        d.sources.every((s: Json) => s.feeds.length > 0),
        'every source says what it feeds',
      );
      assert.equal(d.sources.find((s: Json) => s.code === 'ucdp-brd').releases[0].release, '24.1');
    },
  },
  {
    path: '/search?q=Cobalt',
    figures: false,
    check: (d) => {
      assert.equal(d.matches[0].type, 'material');
      assert.equal(d.matches[0].key, 'cobalt');
      assert.equal(d.matches[0].match, 'key');
    },
  },
  {
    path: '/search?q=cote',
    figures: false,
    check: (d) =>
      assert.ok(
        d.matches.some((m: Json) => m.key === 'CIV'),
        'accents are ignored',
      ),
  },
];

function checkFigure(where: string, f: Json) {
  assert.ok(f.low <= f.median && f.median <= f.high, `${where}: ordered`);
  if (f.provenance !== null) {
    const p = f.provenance;
    assert.ok(
      Math.abs(p.published + p.derived + p.assumption + p.illustrative - 1) < 1e-9,
      `${where}: provenance adds up to 1`,
    );
    if (p.assumption + p.illustrative > 0.5) {
      assert.notEqual(f.grade, 'ROBUST', `${where}: mostly unmeasured inputs cap the grade`);
      assert.match(f.quotable, /rests mostly on assumed or illustrative inputs$/, `${where}: says so where quoted`);
    }
  }
  assert.equal(f.central === null, f.grade === 'INDICATIVE', `${where}: central null exactly when INDICATIVE`);
  const two = (x: number) => Number(x.toPrecision(2));
  const n = (s: string) => Number(s);
  if (f.central === null) {
    const m = /^between (\S+) and (\S+)$/.exec(f.display);
    assert.ok(m, `${where}: ${f.display}`);
    assert.equal(n(m[1]!), two(f.low));
    assert.equal(n(m[2]!), two(f.high));
  } else {
    const m = /^(\S+) \((\S+)–(\S+)\)$/.exec(f.display);
    assert.ok(m, `${where}: ${f.display}`);
    assert.deepEqual([n(m[1]!), n(m[2]!), n(m[3]!)], [two(f.central), two(f.low), two(f.high)]);
  }
}

describe('every endpoint, published', () => {
  for (const c of CASES) {
    test(c.path, async () => {
      const res = await server.api(c.path);
      assert.equal(res.status, 200, res.text);
      const body = res.json;
      const scenario = c.scenario ?? 'S-MAX';
      const runId = server.app.db
        .prepare('SELECT run_id FROM impact_current_runs WHERE scenario = ?')
        .pluck()
        .get(scenario);
      assert.deepEqual(Object.keys(body), [
        'status',
        'scenario',
        'run',
        'methodology_version',
        'data_version',
        'metrics',
        'data',
        'withheld',
        'sources',
        'licence',
        'caveats',
        'citation',
      ]);
      assert.equal(body.status, 'published');
      assert.equal(body.scenario, scenario);
      assert.equal(body.run.id, runId);
      assert.equal(body.withheld, null);
      assert.equal(body.methodology_version, 'v3');
      assert.equal(body.data_version, 'published-2026.5');
      assert.ok('records' in body.data && 'results' in body.data);
      assert.equal(body.citation.run_id, runId);
      assert.match(body.citation.text, new RegExp(`run ${runId}, methodology v3`));
      const codes = body.caveats.map((x: Json) => x.code);
      for (const code of ['floor', 'production_phase', 'wording', 'quoting'])
        assert.ok(codes.includes(code), `caveat ${code}`);
      assert.ok(!codes.includes('illustrative'), 'the published register is not the demo');
      const figures = [...figuresIn(body.data), ...figuresIn(body.metrics)];
      assert.equal(body.metrics.figures, figures.length, 'metrics counts the figures served');
      for (const g of ['ROBUST', 'MODERATE', 'INDICATIVE'])
        assert.equal(body.metrics.grades[g], figures.filter((f) => f.figure.grade === g).length);
      figures.forEach((f) => checkFigure(f.path, f.figure));
      assert.equal(
        figures.some((f) => f.figure.grade === 'INDICATIVE'),
        codes.includes('indicative'),
      );
      // Issue 24: a figure resting on illustrative inputs is never served without the response saying so.
      assert.equal(
        figures.some((f) => f.figure.provenance && f.figure.provenance.illustrative > 0),
        codes.includes('illustrative_inputs'),
      );
      assert.equal(
        figures.some(
          (f) => f.figure.provenance && f.figure.provenance.assumption + f.figure.provenance.illustrative > 0.5,
        ),
        codes.includes('not_measured'),
      );
      if (c.figures) {
        assert.ok(figures.length > 0, 'figures served');
        assert.ok(body.sources.length > 0, 'sources listed');
        // A product's `scenarios` list carries a figure from every scenario's run: their sources too.
        const runs = c.everyScenario
          ? server.app.db.prepare('SELECT run_id FROM impact_current_runs').pluck().all()
          : [runId];
        const used = new Set(
          server.app.db
            .prepare('SELECT source FROM impact_run_sources WHERE run_id IN (SELECT value FROM json_each(?))')
            .pluck()
            .all(JSON.stringify(runs)),
        );
        for (const s of body.sources) {
          assert.ok(used.has(s.code), `${s.code} is a source the run used`);
          assert.ok(s.licence.name && s.credit, `${s.code} has a licence and a credit`);
          assert.ok(s.releases.length > 0);
        }
        if (body.sources.some((s: Json) => s.usage_restriction))
          assert.ok(codes.includes('usage_restriction') && body.licence.restrictions.length > 0);
      } else {
        assert.equal(figures.length, 0);
        assert.deepEqual(body.sources, []);
      }
      c.check(body.data, body);
    });
  }

  test('sources are only those of the figures served: a material lists its own, not every source of the run', async () => {
    const material = (await server.api('/material/cocoa')).json;
    const own = server.app.db
      .prepare("SELECT source FROM impact_run_sources WHERE run_id = 1 AND subject = 'material:cocoa' ORDER BY source")
      .pluck()
      .all();
    assert.deepEqual(
      material.sources.map((s: Json) => s.code),
      own,
    );
    assert.ok(!own.includes('usgs-mcs'), 'cocoa is not a mineral');
  });
});

describe('what every path shares', () => {
  const paths = CASES.map((c) => c.path).concat(['/openapi.json']);

  test('HEAD is GET without a body', async () => {
    for (const path of ['/product/smartphone', '/spend', '/runs/1', '/nope']) {
      const get = await server.api(path);
      const head = await server.request('HEAD', BASE + path, { headers: { authorization: `Bearer ${server.key}` } });
      assert.equal(head.status, get.status, path);
      assert.equal(head.text, '');
      assert.equal(head.headers.get('content-length'), get.headers.get('content-length'), path);
      assert.equal(head.headers.get('etag'), get.headers.get('etag'), path);
    }
  });

  test('any method other than GET, HEAD and OPTIONS is 405 with Allow, on every path', async () => {
    const methods = ['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND', 'PURGE', 'TRACE'];
    for (const path of paths) {
      for (const method of methods) {
        const res = await raw(method, BASE + path.split('?')[0]!);
        assert.equal(res.status, 405, `${method} ${path}`);
        assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS', `${method} ${path}`);
        assert.equal(JSON.parse(res.body).error.code, 'method_not_allowed');
      }
    }
  });

  test('OPTIONS answers a CORS preflight without counting it', async () => {
    const before = await server.anon('/scenarios');
    const res = await server.request('OPTIONS', `${BASE}/product/smartphone`, {
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('allow'), 'GET, HEAD, OPTIONS');
    const next = await server.anon('/scenarios');
    assert.equal(
      Number(next.headers.get('x-ratelimit-remaining')),
      Number(before.headers.get('x-ratelimit-remaining')) - 1,
      'the preflight was not counted',
    );
  });

  test('ETag and If-None-Match: 304 while the run is the same, counted; a new tag for other parameters', async () => {
    const first = await server.api('/product/smartphone');
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"r1-[A-Za-z0-9_-]{22}"$/);
    assert.equal(first.headers.get('cache-control'), 'public, max-age=300');
    const again = await server.api('/product/smartphone', { 'if-none-match': etag });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    assert.equal(again.headers.get('etag'), etag);
    assert.equal(
      Number(again.headers.get('x-ratelimit-remaining')),
      Number(first.headers.get('x-ratelimit-remaining')) - 1,
      'a 304 is counted',
    );
    assert.equal(
      (await server.api('/product/smartphone', { 'if-none-match': `W/${etag}, "other"` })).status,
      304,
      'weak comparison, lists',
    );
    assert.equal((await server.api('/product/smartphone', { 'if-none-match': '"other"' })).status, 200);
    assert.equal(
      (await server.api('/product/smartphone?scenario=S-MAX')).headers.get('etag'),
      etag,
      'the default scenario spelled out is the same response',
    );
    assert.notEqual((await server.api('/product/smartphone?scenario=S-EVID')).headers.get('etag'), etag);
  });

  test('errors are not cacheable and carry the request id and the limit headers', async () => {
    const res = await server.anon('/product/no-such-thing');
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(res.headers.get('x-request-id')!, /.{8,}/);
    assert.match(res.headers.get('x-ratelimit-remaining')!, /^\d+$/);
  });
});

/** A request with any method, through node:http (fetch refuses TRACE and friends). */
function raw(
  method: string,
  path: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(server.url + path);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        headers: { authorization: `Bearer ${server.key}` },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
