/**
 * The one envelope every successful impact response is wrapped in (document "Envelope"): status,
 * scenario, run, methodology_version, data_version, metrics, data, withheld, sources, licence,
 * caveats, citation. Built here and nowhere else, so that withholding (rule 3), the consumer rules
 * (rule 6) and the credits every figure owes its sources are applied the same way on every endpoint.
 *
 * Withholding is enforced here a second time: when `withheld` is set, `metrics` and `data.results`
 * are null whatever the caller passed. (The route layer does not even read figures then; this is the
 * backstop.) Pure: the caller passes everything it read.
 */
import type { Grade } from './figure.ts';
import { composeLicence, restrictionCaveats } from './licence.ts';
import { servedLink } from './served-links.ts';

export const API_VERSION = '1.0.0';

export interface RunFacts {
  id: number;
  scenario: string;
  status: string;
  published_at: string | null;
  draws: number;
  seed: number;
  quantiles: string;
  methodology_version: string;
  data_version: string;
  illustrative: number | boolean;
  engine: string;
  started_at: string;
  finished_at: string;
  rows_sha256: string;
  inputs_sha256: string;
}

export interface SourceFacts {
  code: string;
  name: string;
  publisher: string;
  homepage: string;
  licence_name: string | null;
  licence_url: string | null;
  licence_spdx: string | null;
  credit: string | null;
  usage_restriction: string | null;
  verified_on: string | null;
  /** 1: the register states its terms allow any reuse with the credit; 0: they do not; null: by the licence */
  reuse_open?: number | null;
  releases: Array<{ release: string; published_on: string | null; accessed_on: string | null; url: string | null }>;
}

export interface Withheld {
  code: 'no_published_run';
  reason: string;
}

export type GradeCounts = Record<Grade, number>;
/** Figures of a response resting mostly on unmeasured inputs, and resting in part on illustrative ones. */
export interface ProvenanceCounts {
  not_measured: number;
  illustrative_inputs: number;
}

export interface EnvelopeInput {
  base: string;
  /** The canonical request (path and normalised query): what the citation points at. */
  path: string;
  scenario: string;
  /** The run the figures come from; null while the scenario is withheld. */
  run: RunFacts | null;
  /** Methodology version and data version of the register, used while withheld. */
  registerMethodology: string;
  registerDataVersion: string | null;
  registerIllustrative: boolean;
  metrics: Record<string, unknown> | null;
  data: Record<string, unknown> & { records: unknown; results: unknown };
  grades: GradeCounts;
  /** Absent: nothing to say (a response with no figure, or rows from before provenance). */
  provenance?: ProvenanceCounts;
  sources: SourceFacts[];
}

export const runObject = (run: RunFacts, base: string, current?: boolean) => ({
  id: run.id,
  scenario: run.scenario,
  status: run.status,
  ...(current === undefined ? {} : { current }),
  published_at: run.published_at,
  methodology_version: run.methodology_version,
  data_version: run.data_version,
  draws: run.draws,
  seed: run.seed,
  quantiles: run.quantiles,
  illustrative: run.illustrative === 1 || run.illustrative === true,
  engine: run.engine,
  started_at: run.started_at,
  finished_at: run.finished_at,
  rows_sha256: run.rows_sha256,
  inputs_sha256: run.inputs_sha256,
  links: { self: `${base}/runs/${run.id}` },
});

export const sourceObject = (s: SourceFacts, base: string) => ({
  code: s.code,
  name: s.name,
  publisher: s.publisher,
  homepage: servedLink(s.homepage, base),
  licence: { name: s.licence_name, url: s.licence_url, spdx: s.licence_spdx },
  credit: s.credit,
  usage_restriction: s.usage_restriction,
  verified_on: s.verified_on,
  releases: s.releases.map((r) => ({
    release: r.release,
    published_on: r.published_on,
    accessed_on: r.accessed_on,
    url: r.url,
  })),
});

export function withheldReason(scenario: string, base: string): Withheld {
  return {
    code: 'no_published_run',
    reason: `Scenario ${scenario} has no validated published run, so no figure is served for it (rule 3). Register facts are served as usual; see ${base}/scenarios for the scenarios that have one.`,
  };
}

export function buildEnvelope(input: EnvelopeInput) {
  const { run } = input;
  const withheld = run === null ? withheldReason(input.scenario, input.base) : null;
  const methodology = run?.methodology_version ?? input.registerMethodology;
  const dataVersion = run?.data_version ?? input.registerDataVersion;
  const illustrative = run ? run.illustrative === 1 || run.illustrative === true : input.registerIllustrative;
  const sources = run ? input.sources : [];
  return {
    status: withheld ? 'withheld' : 'published',
    scenario: input.scenario,
    run: run ? runObject(run, input.base) : null,
    methodology_version: methodology,
    data_version: dataVersion,
    metrics: withheld ? null : input.metrics,
    data: withheld ? { ...input.data, results: null } : input.data,
    withheld,
    sources: sources.map((s) => sourceObject(s, input.base)),
    licence: composeLicence(sources),
    caveats: caveats({
      illustrative,
      grades: input.grades,
      provenance: input.provenance ?? { not_measured: 0, illustrative_inputs: 0 },
      sources,
      run,
      registerDataVersion: input.registerDataVersion,
    }),
    citation: citation(input, run, methodology, dataVersion, sources),
  };
}

export interface Caveat {
  code: string;
  text: string;
}

function caveats(c: {
  illustrative: boolean;
  grades: GradeCounts;
  provenance: ProvenanceCounts;
  sources: SourceFacts[];
  run: RunFacts | null;
  registerDataVersion: string | null;
}): Caveat[] {
  const out: Caveat[] = [
    {
      code: 'floor',
      text: 'Every figure is a floor: only harm a source counted, only the shares documented evidence ties to a sector, and only the materials the register models are attributed.',
    },
    {
      code: 'production_phase',
      text: 'Figures cover the production phase only (extraction, processing, manufacture); use, transport to the consumer and disposal are not counted.',
    },
    {
      code: 'wording',
      text: 'Say "attributed to the supply chain of", never "caused by": a figure is a statistical attribution, not a causal claim.',
    },
    {
      code: 'quoting',
      text: 'Quote a figure with its interval (p05–p95), at two significant figures (its display field), with its scenario, run and methodology version (see citation).',
    },
  ];
  if (c.grades.INDICATIVE > 0) {
    out.push({
      code: 'indicative',
      text: `${c.grades.INDICATIVE} figure(s) here are graded INDICATIVE: they have no central value; quote their interval only.`,
    });
  }
  if (c.provenance.not_measured > 0) {
    out.push({
      code: 'not_measured',
      text: `${c.provenance.not_measured} figure(s) here rest mostly on inputs that were not measured (documented assumptions or illustrative values; each figure's provenance says how much): quote them as such.`,
    });
  }
  if (c.provenance.illustrative_inputs > 0 && !c.illustrative) {
    out.push({
      code: 'illustrative_inputs',
      text: `${c.provenance.illustrative_inputs} figure(s) here rest in part on illustrative inputs where no open source gives the value (bills of materials, the input-output table, some prices and production; methodology v2 §1): each figure's provenance gives the share.`,
    });
  }
  if (c.illustrative) {
    out.push({
      code: 'illustrative',
      text: 'The inputs are illustrative (the demo data set, methodology v1 §13) and not for quotation: no source has been verified.',
    });
  }
  out.push(...restrictionCaveats(c.sources));
  if (c.run && c.registerDataVersion !== null && c.registerDataVersion !== c.run.data_version) {
    out.push({
      code: 'register_changed',
      text: `The figures come from data version ${c.run.data_version}; the register facts beside them are data version ${c.registerDataVersion}.`,
    });
  }
  return out;
}

function citation(
  input: EnvelopeInput,
  run: RunFacts | null,
  methodology: string,
  dataVersion: string | null,
  sources: SourceFacts[],
) {
  const credits = sources.map((s) => s.credit).filter((x): x is string => Boolean(x));
  const what = run
    ? `scenario ${input.scenario}, run ${run.id}, methodology ${methodology}, data version ${dataVersion}`
    : `scenario ${input.scenario} (figures withheld: no published run), methodology ${methodology}, data version ${dataVersion ?? 'none'}`;
  return {
    text: `trio impact attribution API ${API_VERSION}, ${input.path}: ${what}.${credits.length ? ` Sources: ${credits.join(' ')}` : ''}`,
    run_id: run ? run.id : null,
    scenario: input.scenario,
    methodology_version: methodology,
    data_version: dataVersion,
    url: input.path,
  };
}
