/**
 * GET /scenarios, /runs, /runs/{id}, /methodology, /sources: register facts and the record of runs
 * (impact_scenarios, impact_runs with impact_current_runs and impact_run_gates,
 * impact_methodology_versions, impact_sources with impact_source_releases). No figures: `results` is
 * null; the envelope still says whether the scenario is withheld.
 *
 * /runs lists every published run whenever any scenario has one (issue 14: listing nothing while only
 * the default scenario was withheld hid the runs /runs/{id} served), grouped per scenario too; it is
 * empty only while every scenario is withheld (document "Runs"). /runs/{id} keeps
 * answering for any run that was ever published, so that a citation stays resolvable after a newer
 * run replaces it; its envelope names the run's own scenario.
 */
import { notFound } from '../../lib/http/errors.ts';
import { runObject } from '../../lib/impact/envelope.ts';
import { servedLink } from '../../lib/impact/served-links.ts';
import { IMPACT_BASE } from './links.ts';
import { DEFAULT_SCENARIO, noQuery, runParams } from './schemas.ts';
import type { RouteDef } from './serve.ts';

export const scenariosRoute: RouteDef<typeof noQuery, typeof noQuery> = {
  path: '/scenarios',
  operationId: 'listScenarios',
  summary: 'The attribution scenarios',
  description:
    'Every scenario with its parameters (what it changes from S-MAX) and the run it serves now, or null while its figures are withheld.',
  response: 'ScenariosResponse',
  query: noQuery,
  build(_input, deps, state) {
    return {
      scenario: DEFAULT_SCENARIO,
      data: {
        scenarios: deps.register.scenarios().map((s) => ({
          code: s.code,
          name: s.name,
          description: s.description,
          default: s.is_default === 1,
          params: JSON.parse(s.params) as Record<string, unknown>,
          run: state.current.get(s.code) ?? null,
        })),
        records: null,
      },
    };
  },
};

export const runsRoute: RouteDef<typeof noQuery, typeof noQuery> = {
  path: '/runs',
  operationId: 'listRuns',
  summary: 'Published runs',
  description:
    'Every run that has been published, newest first, with whether it is the current run of its scenario; and per scenario, its current run and its published run ids. Empty only while no scenario has a published run.',
  response: 'RunsResponse',
  query: noQuery,
  build(_input, deps, state) {
    const published = state.current.size > 0 ? deps.serving.publishedRuns() : [];
    const runs = published.map((r) => runObject(r, IMPACT_BASE, r.current === 1));
    const scenarios = deps.register.scenarios().map((s) => ({
      code: s.code,
      current_run: state.current.get(s.code) ?? null,
      runs: published.filter((r) => r.scenario === s.code).map((r) => r.id),
    }));
    return { scenario: DEFAULT_SCENARIO, data: { runs, scenarios, records: null } };
  },
};

export const runRoute: RouteDef<typeof noQuery, typeof runParams> = {
  path: '/runs/:id',
  operationId: 'getRun',
  summary: 'One published run',
  description:
    'A run a citation names: its parameters, digests and the result of each of its seven gates. 404 for a run that was never published.',
  response: 'RunResponse',
  query: noQuery,
  params: runParams,
  build({ params }, deps, state) {
    const run = deps.serving.run(params.id);
    if (!run || run.published_at === null)
      throw notFound(`No published run ${params.id}. Published runs are listed by ${IMPACT_BASE}/runs.`);
    return {
      scenario: run.scenario,
      data: {
        run: runObject(run, IMPACT_BASE, state.current.get(run.scenario) === run.id),
        gates: deps.serving.gates(run.id).map((g) => ({ ...g, passed: g.passed === 1 })),
        records: null,
      },
    };
  },
};

export const methodologyRoute: RouteDef<typeof noQuery, typeof noQuery> = {
  path: '/methodology',
  operationId: 'listMethodology',
  summary: 'Methodology versions',
  description:
    'Each methodology version with its publication date, summary, frozen flag and the SHA-256 of its document.',
  response: 'MethodologyResponse',
  query: noQuery,
  build(_input, deps) {
    return {
      scenario: DEFAULT_SCENARIO,
      data: {
        versions: deps.register.methodology().map((m) => ({
          ...m,
          frozen: m.frozen === 1,
          // The document this version's document_sha256 is of, served by this API (not a repository path).
          links: Object.fromEntries(
            Object.entries(JSON.parse(m.links) as Record<string, string>).map(([k, url]) => [
              k,
              servedLink(url, IMPACT_BASE),
            ]),
          ),
        })),
        records: null,
      },
    };
  },
};

export const sourcesRoute: RouteDef<typeof noQuery, typeof noQuery> = {
  path: '/sources',
  operationId: 'listSources',
  summary: 'The source register',
  description:
    'Every source with its licence, the credit that licence requires, any restriction on reuse, whether its terms allow any reuse with the credit, whether and when its facts were verified, what the register takes from it, and its releases with the date each was published.',
  response: 'SourcesResponse',
  query: noQuery,
  build(_input, deps) {
    return {
      scenario: DEFAULT_SCENARIO,
      data: {
        sources: deps.register.sources().map((s) => ({
          code: s.code,
          name: s.name,
          publisher: s.publisher,
          homepage: servedLink(s.homepage, IMPACT_BASE),
          enabled: s.enabled === 1,
          verified_on: s.verified_on,
          basis: s.basis,
          licence: { name: s.licence_name, url: s.licence_url, spdx: s.licence_spdx },
          credit: s.credit,
          usage_restriction: s.usage_restriction,
          note: s.note,
          reuse_open: s.reuse_open === null || s.reuse_open === undefined ? null : s.reuse_open === 1,
          feeds: s.feeds ? (JSON.parse(s.feeds) as string[]) : [],
          releases: s.releases.map((r) => ({
            release: r.release,
            published_on: r.published_on,
            accessed_on: r.accessed_on,
            url: r.url,
            note: r.note,
          })),
        })),
        records: null,
      },
    };
  },
};
