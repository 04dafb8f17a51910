/** The envelope: withholding enforced whatever the caller passes, caveats, licence and citation. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildEnvelope, type EnvelopeInput, type RunFacts, type SourceFacts } from '../../../lib/impact/envelope.ts';

const RUN: RunFacts = {
  id: 4,
  scenario: 'S-ARMS',
  status: 'validated',
  published_at: '2026-11-22T10:00:00.000Z',
  draws: 500,
  seed: 1,
  quantiles: 'p05,p50,p95',
  methodology_version: 'v1',
  data_version: 'demo-1',
  illustrative: 1,
  engine: 'e',
  started_at: 's',
  finished_at: 'f',
  rows_sha256: 'r',
  inputs_sha256: 'i',
};
const GBD: SourceFacts = {
  code: 'gbd',
  name: 'GBD',
  publisher: 'IHME',
  homepage: 'h',
  licence_name: 'IHME NC',
  licence_url: 'u',
  licence_spdx: null,
  credit: 'GBD 2021.',
  usage_restriction: 'non-commercial',
  verified_on: null,
  releases: [{ release: 'GBD 2021', published_on: null, accessed_on: null, url: null }],
};
const USGS: SourceFacts = {
  ...GBD,
  code: 'usgs',
  name: 'USGS',
  licence_name: 'U.S. public domain',
  credit: 'U.S. Geological Survey.',
  usage_restriction: null,
};
const SIPRI: SourceFacts = {
  ...GBD,
  code: 'sipri-aid',
  name: 'SIPRI Arms Industry Database',
  licence_name: 'SIPRI terms of use (attribution required; not an open licence)',
  licence_url: 'https://www.sipri.org/about/terms-and-conditions',
  credit: 'Source: SIPRI Arms Industry Database, 2024.',
  usage_restriction: null,
};
const UCDP: SourceFacts = {
  ...GBD,
  code: 'ucdp-ged',
  name: 'UCDP GED',
  licence_name: 'CC BY 4.0',
  licence_spdx: 'CC-BY-4.0',
  credit: 'Sundberg and Melander 2013.',
  usage_restriction: null,
};

const input = (over: Partial<EnvelopeInput> = {}): EnvelopeInput => ({
  base: '/impact/v1',
  path: '/impact/v1/product/x?scenario=S-ARMS',
  scenario: 'S-ARMS',
  run: RUN,
  registerMethodology: 'v1',
  registerDataVersion: 'demo-1',
  registerIllustrative: true,
  metrics: { figures: 2 },
  data: { slug: 'x', records: null, results: { a: 1 } },
  grades: { ROBUST: 0, MODERATE: 1, INDICATIVE: 1 },
  sources: [GBD, USGS],
  ...over,
});

test('published: the run, its versions, the sources used and their credits', () => {
  const e = buildEnvelope(input());
  assert.deepEqual(Object.keys(e), [
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
  assert.equal(e.status, 'published');
  assert.equal(e.run!.links.self, '/impact/v1/runs/4');
  assert.equal(e.run!.illustrative, true);
  assert.deepEqual(
    e.sources.map((s) => [s.code, s.licence.name, s.credit]),
    [
      ['gbd', 'IHME NC', 'GBD 2021.'],
      ['usgs', 'U.S. public domain', 'U.S. Geological Survey.'],
    ],
  );
  assert.deepEqual(e.licence.restrictions, [{ source: 'gbd', restriction: 'non-commercial' }]);
  assert.deepEqual(
    e.caveats.map((c) => c.code),
    ['floor', 'production_phase', 'wording', 'quoting', 'indicative', 'illustrative', 'usage_restriction'],
  );
  assert.ok(e.caveats.find((c) => c.code === 'wording')!.text.includes('attributed to the supply chain of'));
  assert.equal(e.citation.run_id, 4);
  assert.equal(
    e.citation.text,
    'trio impact attribution API 1.0.0, /impact/v1/product/x?scenario=S-ARMS: scenario S-ARMS, run 4, methodology v1, data version demo-1. Sources: GBD 2021. U.S. Geological Survey.',
  );
});

test('withheld: metrics and results are null and no source is listed, whatever the caller passed', () => {
  const e = buildEnvelope(input({ run: null }));
  assert.equal(e.status, 'withheld');
  assert.equal(e.metrics, null);
  assert.deepEqual(e.data, { slug: 'x', records: null, results: null });
  assert.equal(e.withheld!.code, 'no_published_run');
  assert.match(e.withheld!.reason, /S-ARMS has no validated published run/);
  assert.deepEqual(e.sources, []);
  assert.equal(e.citation.run_id, null);
  assert.match(e.citation.text, /figures withheld/);
  assert.ok(
    e.caveats.some((c) => c.code === 'illustrative'),
    'the register is illustrative',
  );
});

test('a register newer than the run is said', () => {
  const e = buildEnvelope(
    input({ registerDataVersion: 'demo-2', sources: [USGS], grades: { ROBUST: 1, MODERATE: 0, INDICATIVE: 0 } }),
  );
  assert.deepEqual(
    e.caveats.map((c) => c.code),
    ['floor', 'production_phase', 'wording', 'quoting', 'illustrative', 'register_changed'],
  );
  assert.equal(e.data_version, 'demo-1', "the figures' data version");
  assert.deepEqual(e.licence.restrictions, []);
});

test('issue 14: the licence is composed from the sources used: CC BY 4.0 only when every one is open', () => {
  const open = buildEnvelope(input({ sources: [USGS, UCDP] })).licence;
  assert.deepEqual([open.name, open.open, open.restrictions], ['CC BY 4.0', true, []]);
  assert.deepEqual(
    open.terms.map((t) => [t.source, t.open]),
    [
      ['usgs', true],
      ['ucdp-ged', true],
    ],
  );

  const arms = buildEnvelope(input({ sources: [SIPRI, UCDP] }));
  assert.equal(arms.licence.open, false);
  assert.notEqual(arms.licence.name, 'CC BY 4.0');
  assert.match(arms.licence.name, /SIPRI terms of use/);
  assert.deepEqual(arms.licence.restrictions, [
    { source: 'sipri-aid', restriction: 'only under SIPRI terms of use (attribution required; not an open licence)' },
  ]);
  const sipri = arms.licence.terms.find((t) => t.source === 'sipri-aid')!;
  assert.equal(sipri.open, false);
  assert.match(sipri.reuse, /not covered by CC BY 4.0/);
  assert.match(sipri.reuse, /Source: SIPRI Arms Industry Database, 2024/);
  assert.match(arms.licence.note, /SIPRI Arms Industry Database/);
  assert.ok(arms.caveats.some((c) => c.code === 'usage_restriction' && c.text.includes('sipri-aid')));

  const gbd = buildEnvelope(input({ sources: [GBD, SIPRI] })).licence;
  assert.deepEqual(
    gbd.restrictions.map((r) => r.source),
    ['gbd', 'sipri-aid'],
  );
  assert.match(gbd.terms[0]!.reuse, /for non-commercial purposes only/);

  const none = buildEnvelope(input({ run: null })).licence;
  assert.deepEqual([none.name, none.open, none.terms], ['CC BY 4.0', true, []]);
});
