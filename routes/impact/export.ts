/**
 * GET /figures.csv?scenario=: every headline figure of a scenario's published run in one CSV file, one
 * request against the allowance (issue 14: a researcher under 100 requests a day). A row per product
 * (deaths and injuries, per unit, per kg and per 1,000 EUR) and per material (per kg); every row carries
 * what rule 6 asks to quote with the figure: its display string, interval, grade, scenario, run,
 * methodology and data versions, its quotable form and the share of it resting on each basis (methodology
 * v2), the sources that figure used with the licence composed from them and the credits they require,
 * and its citation (which names those credits and the endpoint serving the same figure).
 *
 * Every figure goes through the same check as on the JSON endpoints (rule 4: one that fails is a
 * logged 500 and no file). While the scenario has no published run there is nothing to export: 404
 * (rule 3), naming the scenarios that have one. The file of a serving state is built once and cached.
 */
import { CACHEABLE_HEADERS } from '../../lib/http/contract-headers.ts';
import * as v from 'valibot';
import { notFound } from '../../lib/http/errors.ts';
import { defineOperation } from '../../lib/http/operation.ts';
import type { Reply } from '../../lib/http/types.ts';
import { checkRun } from '../../lib/impact/check-figure.ts';
import { API_VERSION, type SourceFacts } from '../../lib/impact/envelope.ts';
import { composeLicence } from '../../lib/impact/licence.ts';
import { csvLine } from '../../lib/csv.ts';
import { etagOf, conditionalReply } from './cache.ts';
import { BASES, materialPerKg, productFigure } from './headlines.ts';
import { IMPACT_BASE } from './links.ts';
import { DEFAULT_SCENARIO, METRICS, scenarioQuery } from './schemas.ts';
import { FigureSession, PUBLISHED_CACHE_CONTROL, translate, type ImpactDeps } from './serve.ts';

export const CSV_COLUMNS = [
  'subject_type',
  'key',
  'name',
  'metric',
  'basis',
  'unit',
  'central',
  'low',
  'median',
  'high',
  'grade',
  'display',
  'quotable',
  'rests_on_published',
  'rests_on_derived',
  'rests_on_assumption',
  'rests_on_illustrative',
  'scenario',
  'run',
  'methodology_version',
  'data_version',
  'sources',
  'licence',
  'credits',
  'citation',
  'url',
] as const;

export function figuresCsvOperation(deps: ImpactDeps) {
  return defineOperation({
    spec: {
      method: 'GET',
      path: '/figures.csv',
      operationId: 'exportFigures',
      summary: 'Every figure of a scenario, as CSV',
      description: `Every headline figure of the scenario's published run in one file: per product deaths and injuries per unit, per kg and per 1,000 EUR; per material per kg. Columns: ${CSV_COLUMNS.join(', ')}. central is empty for an INDICATIVE figure; rests_on_* are the shares of the value resting on each basis (empty for runs from before they were computed). One request against the allowance. 404 while the scenario has no published run.`,
      query: scenarioQuery,
      responses: {
        200: {
          description: 'The figures (text/csv, RFC 4180, a header row first).',
          contentType: 'text/csv',
          schema: v.string(),
          headers: CACHEABLE_HEADERS,
        },
        304: {
          description: 'Not modified: the If-None-Match tag is still current (counted like any request).',
          headers: CACHEABLE_HEADERS,
        },
      },
    },
    handle(req, { query }): Reply {
      try {
        const scenario = query.scenario ?? DEFAULT_SCENARIO;
        const state = deps.serving.state();
        const runId = state.current.get(scenario);
        if (runId === undefined) {
          const published = [...state.current.keys()];
          throw notFound(
            `Scenario ${scenario} has no published run, so it has no figures to export (rule 3). ${published.length ? `Scenarios with figures: ${published.join(', ')}.` : 'No scenario has figures yet.'}`,
          );
        }
        const key = `${state.key}\nfigures.csv ${scenario}`;
        let entry = deps.cache.get(key, req.now);
        if (!entry) {
          const body = Buffer.from(buildCsv(deps, state, scenario, runId));
          entry = { body, etag: etagOf(runId, body), cacheControl: PUBLISHED_CACHE_CONTROL };
          deps.cache.set(key, entry);
        }
        const headers = {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="impact-figures-${scenario}-run-${runId}.csv"`,
          etag: entry.etag,
          'cache-control': entry.cacheControl,
        };
        return conditionalReply(req, headers, entry.body);
      } catch (err) {
        throw translate(err, req, deps.log);
      }
    },
  });
}

function buildCsv(
  deps: ImpactDeps,
  state: ReturnType<ImpactDeps['serving']['state']>,
  scenario: string,
  runId: number,
): string {
  const run = deps.serving.run(runId)!;
  checkRun(run, `${scenario} run ${run.id}`);
  const session = new FigureSession(run, deps, state);
  const register = new Map(deps.register.sources().map((s) => [s.code, s as SourceFacts]));
  const credited = (subject: string) =>
    deps.figures
      .sources(run.id, [subject])
      .map((c) => register.get(c))
      .filter((s): s is SourceFacts => Boolean(s));
  const lines = [csvLine(CSV_COLUMNS)];
  const row = (
    type: string,
    key: string,
    name: string,
    metric: string,
    basis: string,
    path: string,
    subject: string,
    f: ReturnType<FigureSession['figure']>,
  ) => {
    const sources = credited(subject);
    const url = `${IMPACT_BASE}${path}?scenario=${scenario}`;
    const credits = sources
      .map((s) => s.credit)
      .filter(Boolean)
      .join(' ');
    const citation = `trio impact attribution API ${API_VERSION}, ${url}: ${type} ${key} ${metric} ${basis}, scenario ${scenario}, run ${run.id}, methodology ${run.methodology_version}, data version ${run.data_version}.${credits ? ` Sources: ${credits}` : ''}`;
    lines.push(
      csvLine([
        type,
        key,
        name,
        metric,
        basis,
        f.unit,
        f.central,
        f.low,
        f.median,
        f.high,
        f.grade,
        f.display,
        f.quotable,
        f.provenance?.published ?? null,
        f.provenance?.derived ?? null,
        f.provenance?.assumption ?? null,
        f.provenance?.illustrative ?? null,
        scenario,
        run.id,
        run.methodology_version,
        run.data_version,
        sources.map((s) => s.code).join(' '),
        composeLicence(sources).name,
        credits,
        citation,
        url,
      ]),
    );
  };
  for (const p of deps.catalogue.products({ tier: null, category: null })) {
    for (const metric of METRICS) {
      for (const basis of BASES) {
        const f = productFigure(session, deps, p, metric, basis);
        if (f) row('product', p.slug, p.name, metric, basis, `/product/${p.slug}`, `product:${p.slug}`, f);
      }
    }
  }
  for (const m of deps.lists.materials()) {
    const x = materialPerKg(session, deps, m.slug);
    for (const metric of METRICS) {
      const f = x[metric];
      if (f) row('material', m.slug, m.name, metric, 'per_kg', `/material/${m.slug}`, `material:${m.slug}`, f);
    }
  }
  return lines.join('');
}
