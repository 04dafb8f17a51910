/**
 * One run of one scenario, from the register to the rows it writes (no I/O, no clock): harm →
 * sectors → materials → products on the material route, harm intensities → Leontief multipliers on
 * the input-output route, spend through the COICOP bridge, reach. Deterministic: the same register,
 * scenario, seed and draw count give the same rows, in the same order, to the bit.
 *
 * With `only`, it computes just those products (and, internally, their components) and emits only
 * their product rows: the reproducibility gate compares them with the full run's.
 */
import { groupBy, provenanceCap, provenanceOf, wholly, type Provenance } from './basis.ts';
import { checkBom, flattenCentral, linesByProduct, type BomCheck } from './bom.ts';
import { productCap, worse, type Grade } from './figure.ts';
import { attributeHarm, type CountedExcess } from './harm.ts';
import { armsIntensity, materialIntensities } from './materials.ts';
import { buildMrio, footprint, harmIntensities, unitColumn, type ColumnResult } from './mrio.ts';
import { materialRows, nearestRows, reachRows, spendLeftOut, spendRows } from './outputs.ts';
import { BASIS_DIMENSIONS, basisSplit, breakdowns, computeProduct, type ProductDraws } from './products.ts';
import { BASIS_NAMES, pushContributions, pushStats } from './contributions.ts';
import { emptyRows, provColumns, statColumns, type RunRows, type StatColumns } from './rows.ts';
import { parseParams, V1_UNCERTAINTY, type ScenarioParams, type Uncertainty } from './scenario.ts';
import { METRICS, type Metric, type Product, type Register } from './types.ts';
import { LAYERS } from './mrio.ts';

export const ENGINE = 'trio impact engine 2.0.0 (methodology v1, v2)';

export interface RunOptions {
  seed: number;
  draws: number;
  only?: readonly string[];
  /** v1's input uncertainties unless given (tests switch them off to check figures by hand) */
  uncertainty?: Uncertainty;
  onProgress?: (done: number, total: number) => void;
}

export interface RunChecks {
  bom: BomCheck;
  ratios: Array<CountedExcess & { metric: Metric }>;
  sourcesUsed: string[];
  excludedRows: number;
}

export interface RunResult {
  scenario: string;
  params: ScenarioParams;
  seed: number;
  draws: number;
  rows: RunRows;
  checks: RunChecks;
}

type Labels = {
  material: Map<string, string>;
  country: Map<string, string>;
  conflict: Map<string, string>;
  channel: Map<string, string>;
  sector: Map<string, string>;
  region: Map<string, string>;
};

export function computeRun(reg: Register, scenarioCode: string, opts: RunOptions): RunResult {
  const scenario = reg.scenarios.find((s) => s.code === scenarioCode);
  if (!scenario) throw new Error(`no scenario ${scenarioCode} in the register`);
  const params = parseParams(scenario.params, scenarioCode);
  const n = opts.draws;
  const u = opts.uncertainty ?? V1_UNCERTAINTY;
  if (!Number.isInteger(n) || n < 2) throw new Error('draws must be an integer ≥ 2');
  const bom = checkBom(reg.products, reg.bom, reg.materials);
  const lines = linesByProduct(reg.bom);
  const products = new Map(reg.products.map((p) => [p.slug, p]));
  const materialsBySlug = new Map(reg.materials.map((m) => [m.slug, m]));
  const sectorOf = new Map(reg.materials.map((m) => [m.slug, m.sector]));
  const labels: Labels = {
    material: new Map([
      ...reg.materials.map((m) => [m.slug, m.name] as const),
      ['none', 'arms manufacture (not a material)'],
    ]),
    country: new Map(reg.countries.map((c) => [c.iso3, c.name])),
    conflict: new Map([
      ...reg.conflicts.map((k) => [k.slug, k.name] as const),
      ['none', 'not through a conflict (channels C2–C4)'],
    ]),
    channel: new Map(reg.channels.map((c) => [c.code, c.name])),
    sector: new Map(reg.sectors.map((s) => [s.code, s.name])),
    region: new Map(reg.mrio.regions.map((r) => [r, r])),
  };
  const order = selectOrder(bom.order, opts.only, lines, products);
  const emit = new Set(opts.only ?? bom.order);
  const usedAsComponent = new Set(reg.bom.filter((l) => l.component_type === 'product').map((l) => l.component_key!));
  const model = buildMrio(reg);
  const rows = emptyRows();
  const checks: RunChecks = { bom, ratios: [], sourcesUsed: [], excludedRows: 0 };
  const sourcesUsed = new Set<string>(reg.always_sources);
  const productSources = new Map<string, Set<string>>();
  const materialSources = new Map<string, Set<string>>();
  const scratch = new Float64Array(n);
  const runCap: Grade = reg.illustrative ? 'MODERATE' : 'ROBUST';
  // Every path of the input-output route goes through the table: its figures rest on the table's basis.
  const mrioProvenance = wholly(reg.mrio.basis ?? 'illustrative');
  const mrioProv = (mean: number): Provenance | null => (mean > 0 ? mrioProvenance : null);
  const mrioCap = (mean: number): Grade => worse(runCap, provenanceCap(mrioProv(mean)));
  const totalSteps = order.length * METRICS.length;
  let step = 0;

  for (const metric of METRICS) {
    const harm = attributeHarm(reg, params, scenarioCode, metric, opts.seed, n, u);
    checks.ratios.push(...harm.ratios.map((r) => ({ ...r, metric })));
    checks.excludedRows = Math.max(checks.excludedRows, harm.excludedRows);
    harm.sources.forEach((s) => sourcesUsed.add(s));
    const mats = materialIntensities(reg, params, harm, opts.seed, n, u);
    for (const [slug, mi] of mats)
      mi.sources.forEach((s) => (materialSources.get(slug) ?? materialSources.set(slug, new Set()).get(slug)!).add(s));
    const arms = params.arms ? armsIntensity(reg, harm, n) : null;
    const S = harmIntensities(reg, model, harm, n);
    const mrioSources = new Set([...harm.sources, ...reg.always_sources, ...(arms ? ['sipri-aid'] : [])]);
    mrioSources.forEach((s) => sourcesUsed.add(s));
    const columns = new Map<
      string,
      { res: ColumnResult; stats: Map<string, Map<string, StatColumns>>; total: StatColumns }
    >();
    const column = (p: Product) => {
      const key = `${p.mrio_region}:${p.mrio_sector}`;
      let c = columns.get(key);
      if (!c) {
        const res = footprint(model, S, unitColumn(model, p.mrio_region, p.mrio_sector), 1000);
        const total = statColumns(res.total, runCap, scratch);
        const cap = mrioCap(total.mean);
        const stats = new Map<string, Map<string, StatColumns>>();
        for (const [dim, map] of [
          ['sector', res.bySector],
          ['country', res.byRegion],
          ['channel', res.byChannel],
          ['layer', res.byLayer],
          ['basis', new Map([[reg.mrio.basis ?? 'illustrative', res.total]])],
        ] as const) {
          stats.set(dim, new Map([...map.entries()].map(([k, draws]) => [k, statColumns(draws, cap, scratch)])));
        }
        columns.set(key, (c = { res, stats, total: statColumns(res.total, cap, scratch) }));
        if (!opts.only) rows.draws.push({ subject_type: 'mrio_column', subject_key: key, metric, draws: res.total });
      }
      return c;
    };

    const done = new Map<string, ProductDraws>();
    const ctx = { seed: opts.seed, n, uncertainty: u, lines, products, materials: mats, arms, done };
    const perUnitMeans = new Map<string, number>();
    for (const slug of order) {
      const p = products.get(slug)!;
      const pd = computeProduct(p, ctx);
      if (usedAsComponent.has(slug)) done.set(slug, pd);
      if (emit.has(slug)) {
        // What the headline rests on: the same draws split by the bases of every path's inputs.
        const split = basisSplit(pd, ctx);
        const provenance = provenanceOf(split);
        const prov = provColumns(provenance);
        const cap = worse(productCap(p, reg.illustrative), provenanceCap(provenance));
        const head = statColumns(pd.total, cap, scratch);
        perUnitMeans.set(slug, head.mean);
        rows.figures.push({
          subject_type: 'product',
          subject_key: slug,
          metric,
          basis: 'per_unit',
          route: 'material',
          ...head,
          ...prov,
        });
        if (p.unit_mass_g !== null) {
          const k = 1000 / p.unit_mass_g;
          rows.figures.push({
            subject_type: 'product',
            subject_key: slug,
            metric,
            basis: 'per_kg',
            route: 'material',
            low: head.low * k,
            median: head.median * k,
            high: head.high * k,
            mean: head.mean * k,
            central: head.central === null ? null : head.central * k,
            grade: head.grade,
            ...prov,
          });
        }
        const col = column(p);
        rows.figures.push({
          subject_type: 'product',
          subject_key: slug,
          metric,
          basis: 'per_1000_eur',
          route: 'mrio',
          ...col.total,
          ...provColumns(mrioProv(col.total.mean)),
        });
        rows.draws.push({ subject_type: 'product', subject_key: slug, metric, draws: pd.total });
        const lineLabels = new Map(
          (lines.get(slug) ?? []).map((l) => [
            String(l.line),
            `${l.line}. ${l.role}${l.component_type === 'unmodelled' ? ' (not modelled)' : ''}`,
          ]),
        );
        lineLabels.set('manufacture', 'arms manufacture (value added at this stage)');
        pushContributions(
          rows.contributions,
          slug,
          metric,
          'material',
          'line',
          pd.lines,
          lineLabels,
          head.mean,
          cap,
          scratch,
        );
        for (const [dim, map] of breakdowns(pd, ctx, sectorOf))
          pushContributions(
            rows.contributions,
            slug,
            metric,
            'material',
            dim,
            map,
            labels[dim],
            head.mean,
            cap,
            scratch,
          );
        for (const [dim, kind] of BASIS_DIMENSIONS)
          pushContributions(
            rows.contributions,
            slug,
            metric,
            'material',
            dim,
            groupBy(split, kind),
            BASIS_NAMES,
            head.mean,
            cap,
            scratch,
          );
        for (const [dim, stats] of col.stats) {
          const lbl =
            dim === 'country'
              ? labels.region
              : dim === 'layer'
                ? new Map(LAYERS.map((l) => [l.key as string, l.label as string]))
                : dim === 'basis'
                  ? BASIS_NAMES
                  : labels[dim as 'sector' | 'channel'];
          pushStats(rows.contributions, slug, metric, 'mrio', dim, stats, lbl, col.total.mean);
        }
        const used = productSources.get(slug) ?? new Set<string>();
        for (const m of pd.Q.keys()) mats.get(m)!.sources.forEach((s) => used.add(s));
        if (p.is_arms && arms) used.add('sipri-aid');
        used.add(p.price_source);
        mrioSources.forEach((s) => used.add(s));
        productSources.set(slug, used);
      }
      opts.onProgress?.(++step, totalSteps);
    }
    if (!opts.only) {
      rows.figures.push(...materialRows(reg, mats, metric, scratch));
      rows.reach.push(...reachRows(reg, harm, mats, arms, rows.contributions, metric, scratch));
      rows.spend.push(
        ...spendRows(reg, model, S, params.consumer, metric, { runCap, provenance: mrioProvenance }, scratch),
      );
      for (const channel of S.channels) {
        const s = S.byChannel.get(channel)!;
        for (let col = 0; col < model.n; col++) {
          const draws = s.subarray(col * n, (col + 1) * n);
          if (!draws.some((x) => x !== 0)) continue;
          const { low, median, high, mean } = statColumns(draws, 'ROBUST', scratch);
          rows.intensities.push({
            metric,
            region: model.regions[Math.floor(col / model.sectors.length)]!,
            sector: model.sectors[col % model.sectors.length]!,
            channel,
            low,
            median,
            high,
            mean,
          });
        }
      }
      if (metric === 'deaths') rows.nearest.push(...nearestRows(rows.figures));
    }
  }

  for (const slug of order) {
    if (!emit.has(slug)) continue;
    const p = products.get(slug)!;
    rows.products.push({
      product: slug,
      complete: p.complete ? 1 : 0,
      bom_confidence: p.bom_confidence,
      unit_mass_g: p.unit_mass_g,
      price_eur: p.price_eur,
      mrio_column: `${p.mrio_region}:${p.mrio_sector}`,
    });
    flattenCentral(slug, lines, products, materialsBySlug).forEach((q, i) =>
      rows.quantities.push({ product: slug, seq: i + 1, ...q }),
    );
    for (const s of [...productSources.get(slug)!].sort()) rows.sources.push({ subject: `product:${slug}`, source: s });
  }
  if (!opts.only) {
    const spendSources = new Set([...sourcesUsed].filter((s) => s !== 'sipri-aid' || params.arms));
    reg.coicop.forEach((c) => c.share_source && spendSources.add(c.share_source));
    reg.spend_sources.forEach((s) => spendSources.add(s));
    for (const m of reg.materials)
      for (const s of [...materialSources.get(m.slug)!].sort())
        rows.sources.push({ subject: `material:${m.slug}`, source: s });
    for (const s of [...spendSources].sort()) rows.sources.push({ subject: 'spend', source: s });
    for (const s of [...sourcesUsed, ...spendSources].filter((v, i, a) => a.indexOf(v) === i).sort())
      rows.sources.push({ subject: '*', source: s });
    rows.spendLeftOut.push(...spendLeftOut(reg, params.consumer));
  }
  checks.sourcesUsed = [...new Set([...sourcesUsed, ...rows.sources.map((r) => r.source)])].sort();
  return { scenario: scenarioCode, params, seed: opts.seed, draws: n, rows, checks };
}

/** Products to compute, components first: all computable ones, or `only` and what they are made of. */
function selectOrder(
  order: string[],
  only: readonly string[] | undefined,
  lines: Map<string, import('./types.ts').BomLine[]>,
  products: Map<string, Product>,
): string[] {
  if (!only) return order;
  const need = new Set<string>();
  const add = (slug: string) => {
    if (need.has(slug) || !products.has(slug)) return;
    need.add(slug);
    for (const l of lines.get(slug) ?? []) if (l.component_type === 'product' && l.component_key) add(l.component_key);
  };
  only.forEach(add);
  return order.filter((s) => need.has(s));
}
