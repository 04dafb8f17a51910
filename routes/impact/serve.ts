/**
 * How every impact endpoint is served, in one place: the router validates the request against the
 * schemas the route declares (400s, lib/http/operation.ts); here: read the serving
 * state, answer from the response cache or build the response, wrap it in the envelope, and answer
 * 304 to a matching If-None-Match. Each endpoint only declares its schemas and a `build` that reads
 * register facts and, separately, a `figures` step:
 *
 *  - `figures` is called only when the envelope's scenario has a published run (rule 3, withholding
 *    per scenario, SPEC): while withheld no figure row is even read, and the envelope nulls
 *    `metrics` and `data.results` besides;
 *  - every figure goes through FigureSession.figure, i.e. lib/impact/check-figure.ts (rule 4); a
 *    failing one aborts the response with a logged 500 and nothing is cached;
 *  - the session records which subjects' sources the figures used, and only those sources are listed.
 *
 * Caching (decisions "Impact attribution"): responses of one serving state never change, so the
 * serialised bytes are kept by (state, canonical request). Published responses may be kept by clients
 * and shared caches for 5 minutes (a newly published run reaches them within that), withheld ones must
 * be revalidated. A 304 is a request like any other: it is counted.
 */
import { CACHEABLE_HEADERS } from '../../lib/http/contract-headers.ts';
import type * as v from 'valibot';
import type { Logger } from 'pino';
import type { CatalogueReads } from '../../db/impact/queries/catalogue.ts';
import type { FigureReads, RunProductRow } from '../../db/impact/queries/figures.ts';
import type { ListReads } from '../../db/impact/queries/lists.ts';
import type { RegisterReads } from '../../db/impact/queries/register.ts';
import type { RunRow, ServingReads, ServingState } from '../../db/impact/queries/state.ts';
import { checkFigure, checkRun, FigureCheckError, type Figure, type StatRow } from '../../lib/impact/check-figure.ts';
import { buildEnvelope, type GradeCounts, type ProvenanceCounts, type SourceFacts } from '../../lib/impact/envelope.ts';
import { provenanceCap, unmeasured, type Provenance } from '../../lib/impact/basis.ts';
import { productCap, worse, type Grade } from '../../lib/impact/figure.ts';
import { HttpError } from '../../lib/http/errors.ts';
import { impactError } from './errors.ts';
import { defineOperation, type Operation } from '../../lib/http/operation.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import type { OperationSpec } from '../../lib/openapi.ts';
import type { ParamsSchema } from '../../lib/validate.ts';
import type { ResponseCache } from '../../lib/response-cache.ts';
import { etagOf, conditionalReply, type CachedResponse } from './cache.ts';
import { IMPACT_BASE } from './links.ts';

export const PUBLISHED_CACHE_CONTROL = 'public, max-age=300';
export const WITHHELD_CACHE_CONTROL = 'public, no-cache';

export interface ImpactDeps {
  log: Logger;
  serving: ServingReads;
  catalogue: CatalogueReads;
  register: RegisterReads;
  figures: FigureReads;
  lists: ListReads;
  cache: ResponseCache<CachedResponse>;
}

export interface Served {
  /** The scenario the envelope names: the request's, or a run's own for /runs/{id}. */
  scenario: string;
  /** Register facts, `records` included: served whether or not figures are withheld. */
  data: Record<string, unknown> & { records: unknown };
  /** Reads and checks the figures; called only when `scenario` has a published run. */
  figures?: (f: FigureSession) => { results: unknown; metrics?: Record<string, unknown> };
}

export interface Input<Q extends ParamsSchema, P extends ParamsSchema> {
  query: v.InferOutput<Q>;
  params: v.InferOutput<P>;
}

export interface RouteDef<Q extends ParamsSchema, P extends ParamsSchema> {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** Component name of the 200 body in the contract. */
  response: string;
  query: Q;
  params?: P;
  /** Query defaults, so that `?scenario=S-MAX` and no scenario are one cache entry and one citation. */
  defaults?: Record<string, string | number>;
  /** Canonical form of validated input (e.g. ISO codes upper-cased) before it keys the cache. */
  normalize?: (input: Input<Q, P>) => Input<Q, P>;
  build: (input: Input<Q, P>, deps: ImpactDeps, state: ServingState) => Served;
}

/** One response's figures: each is checked against its run, counted by grade, and its sources noted. */
export class FigureSession {
  readonly grades: GradeCounts = { ROBUST: 0, MODERATE: 0, INDICATIVE: 0 };
  /** Figures resting mostly on unmeasured inputs, and figures resting in part on illustrative ones. */
  readonly provenance: ProvenanceCounts = { not_measured: 0, illustrative_inputs: 0 };
  private readonly used = new Map<number, { run: RunRow; subjects: Set<string>; prefixes: Set<string> }>();
  private readonly products = new Map<number, Map<string, RunProductRow>>();

  constructor(
    readonly run: RunRow,
    private readonly deps: ImpactDeps,
    private readonly state: ServingState,
  ) {}

  /** The published run of another scenario (a product's `scenarios` list), or null while it is withheld. */
  runOf(scenario: string): RunRow | null {
    const id = this.state.current.get(scenario);
    return id === undefined ? null : this.deps.serving.run(id);
  }

  /** The grade cap of figures made from the run's inputs as a whole (materials, reach totals, spend, input-output route). */
  runCap(run: RunRow = this.run): Grade {
    return run.illustrative ? 'MODERATE' : 'ROBUST';
  }

  /** The grade cap of a product's material-route figures, from what the run knew of the product. */
  productCap(slug: string, run: RunRow = this.run): Grade {
    let known = this.products.get(run.id);
    if (!known) this.products.set(run.id, (known = this.deps.figures.runProducts(run.id)));
    const p = known.get(slug);
    if (!p) throw new FigureCheckError(`product ${slug}`, `not computed by run ${run.id}`);
    return productCap({ complete: p.complete === 1, bom_confidence: p.bom_confidence }, Boolean(run.illustrative));
  }

  /**
   * The cap of a breakdown's parts (and a reach's products): its headline's, including what the
   * headline rests on (parts carry no provenance of their own; checkFigure caps a headline by its own).
   */
  partCap(slug: string, metric: string, route: 'material' | 'mrio', run: RunRow = this.run): Grade {
    const basis = route === 'material' ? 'per_unit' : 'per_1000_eur';
    const head = this.deps.figures.figure(run.id, 'product', slug, metric, basis);
    const provenance = head ? provenanceOfStored(head) : null;
    const base = route === 'material' ? this.productCap(slug, run) : this.runCap(run);
    return worse(base, provenanceCap(provenance));
  }

  /** Checks a row and makes it a Figure; `count` false for a figure read only to derive something (a share). */
  figure(
    row: StatRow & { run_id: number },
    what: string,
    unit: string,
    cap: Grade,
    run: RunRow = this.run,
    count = true,
  ): Figure {
    const f = checkFigure(run, row, { what, unit, cap, runId: row.run_id });
    if (count) {
      this.grades[f.grade]++;
      if (f.provenance && unmeasured(f.provenance) > 0.5) this.provenance.not_measured++;
      if (f.provenance && f.provenance.illustrative > 0) this.provenance.illustrative_inputs++;
    }
    return f;
  }

  /** Notes that the figures used a subject's sources ('product:<slug>', 'material:<slug>', 'spend'). */
  use(subject: string, run: RunRow = this.run, prefix = false): void {
    let u = this.used.get(run.id);
    if (!u) this.used.set(run.id, (u = { run, subjects: new Set(), prefixes: new Set() }));
    (prefix ? u.prefixes : u.subjects).add(subject);
  }

  sourceCodes(): string[] {
    const codes = new Set<string>();
    for (const [runId, u] of this.used) {
      this.deps.figures.sources(runId, [...u.subjects]).forEach((c) => codes.add(c));
      for (const p of u.prefixes) this.deps.figures.sourcesWithPrefix(runId, p).forEach((c) => codes.add(c));
    }
    return [...codes].sort();
  }
}

export function impactOperation<Q extends ParamsSchema, P extends ParamsSchema>(
  def: RouteDef<Q, P>,
  deps: ImpactDeps,
): Operation {
  const spec = {
    method: 'GET' as const,
    path: def.path,
    operationId: def.operationId,
    summary: def.summary,
    description: def.description,
    query: def.query,
    ...(def.params ? { params: def.params } : {}),
    responses: {
      200: {
        description: def.summary,
        schema: def.response,
        headers: CACHEABLE_HEADERS,
      },
      304: {
        description: 'Not modified: the If-None-Match tag is still current (counted like any request).',
        headers: CACHEABLE_HEADERS,
      },
    },
  } satisfies OperationSpec;
  return defineOperation({
    spec,
    handle(req, parsed): Reply {
      try {
        const state = deps.serving.state();
        // The URL exactly as sent names its entry too: a repeat skips normalizing and rendering, since
        // the same URL always parses the same way (and only a request that rendered was ever cached).
        const asSent = `${state.key}\n${req.url}`;
        let entry = deps.cache.get(asSent, req.now);
        if (!entry) {
          let input: Input<Q, P> = parsed;
          if (def.normalize) input = def.normalize(input);
          const path = canonicalPath(def, input);
          const key = `${state.key}\n${path}`;
          entry = deps.cache.get(key, req.now);
          if (!entry) {
            entry = render(def, input, path, state, deps);
            deps.cache.set(key, entry);
          }
          deps.cache.set(asSent, entry);
        }
        const headers = {
          'content-type': 'application/json; charset=utf-8',
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

function render<Q extends ParamsSchema, P extends ParamsSchema>(
  def: RouteDef<Q, P>,
  input: Input<Q, P>,
  path: string,
  state: ServingState,
  deps: ImpactDeps,
): CachedResponse {
  const served = def.build(input, deps, state);
  const runId = state.current.get(served.scenario) ?? null;
  const run = runId === null ? null : deps.serving.run(runId);
  let results: unknown = null;
  let metrics: Record<string, unknown> | null = null;
  let grades: GradeCounts = { ROBUST: 0, MODERATE: 0, INDICATIVE: 0 };
  let provenance: ProvenanceCounts = { not_measured: 0, illustrative_inputs: 0 };
  let sources: SourceFacts[] = [];
  if (run) {
    checkRun(run, `${served.scenario} run ${run.id}`);
    const session = new FigureSession(run, deps, state);
    const out = served.figures?.(session);
    results = out?.results ?? null;
    grades = session.grades;
    provenance = session.provenance;
    metrics = { ...(out?.metrics ?? {}), figures: grades.ROBUST + grades.MODERATE + grades.INDICATIVE, grades };
    sources = sourceFacts(deps, session.sourceCodes());
  }
  const envelope = buildEnvelope({
    base: IMPACT_BASE,
    path,
    scenario: served.scenario,
    run,
    registerMethodology: deps.serving.methodology(),
    registerDataVersion: state.dataVersion,
    registerIllustrative: state.illustrative,
    metrics,
    data: { ...served.data, results },
    grades,
    provenance,
    sources,
  });
  const body = Buffer.from(JSON.stringify(envelope));
  return {
    body,
    etag: etagOf(run ? run.id : null, body),
    cacheControl: run ? PUBLISHED_CACHE_CONTROL : WITHHELD_CACHE_CONTROL,
  };
}

/** The sources a response's figures used, from the register; a used source the register no longer has is a fault. */
function sourceFacts(deps: ImpactDeps, codes: string[]): SourceFacts[] {
  if (codes.length === 0) return [];
  const register = new Map(deps.register.sources().map((s) => [s.code, s]));
  return codes.map((code) => {
    const s = register.get(code);
    if (!s)
      throw new FigureCheckError(
        `source ${code}`,
        'used by the run but missing from the source register: its credit cannot be given',
      );
    return s;
  });
}

/** The request in canonical form (defaults applied, parameters sorted): the cache key and the citation's url. */
function canonicalPath<Q extends ParamsSchema, P extends ParamsSchema>(
  def: RouteDef<Q, P>,
  input: Input<Q, P>,
): string {
  const params = input.params as Record<string, unknown>;
  const path = def.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
  const query = Object.entries({ ...def.defaults, ...(input.query as Record<string, unknown>) })
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, value]): [string, string] => [k, String(value)]);
  return IMPACT_BASE + path + (query.length ? `?${new URLSearchParams(query).toString()}` : '');
}

/** A refusal stays as it is; a figure that failed its checks becomes the logged 500 of rule 4. */
export function translate(err: unknown, req: ApiRequest, log: Logger): unknown {
  if (err instanceof HttpError) return err;
  if (err instanceof FigureCheckError) {
    log.error(
      { reqId: req.id, figure: err.what, reason: err.reason },
      'impact: a figure failed its checks and was not served',
    );
    return impactError(
      'figure_check_failed',
      `A figure in this response failed its own checks, so it is not served (rule 4). The fault is logged; quote request id ${req.id} when reporting it.`,
    );
  }
  return err; // a database that does not answer becomes 503 in serviceRouter (lib/http/unavailable.ts)
}

/** The provenance columns of a stored row, or null when it carries none. */
function provenanceOfStored(row: StatRow): Provenance | null {
  if (row.prov_published === null || row.prov_published === undefined) return null;
  return {
    published: row.prov_published,
    derived: row.prov_derived ?? 0,
    assumption: row.prov_assumption ?? 0,
    illustrative: row.prov_illustrative ?? 0,
  };
}
