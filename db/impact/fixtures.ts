/**
 * The fixture files' shapes (fixtures/impact/*.json, described in fixtures/impact/README.md) and
 * their expansion into rows of the register tables: defaults applied, compact lines spelled out,
 * derived columns (a product's `complete` and `bom_confidence`, C1 harm summed from the ledger, the
 * input-output table from its technology matrix) computed. Pure.
 */
import { checkBom, flattenCentral, linesByProduct } from '../../lib/impact/bom.ts';
import type { CountryRow } from '../../lib/impact/countries.ts';
import type { BomLine, Material, Product } from '../../lib/impact/types.ts';

type Conf = 'high' | 'medium' | 'low';
type Row = Record<string, unknown>;
export interface Licence {
  name: string;
  url: string;
  spdx: string | null;
}

export interface Fixtures {
  'manifest.json': { data_version: string; illustrative: boolean; files: string[]; methodology_document: string };
  'sources.json': {
    sources: Array<{
      code: string;
      name: string;
      publisher: string;
      homepage: string;
      enabled: boolean;
      verified_on: string | null;
      basis: string | null;
      licence: Licence | null;
      credit: string | null;
      usage_restriction: string | null;
      note: string | null;
      releases: Row[];
    }>;
  };
  'channels.json': {
    channels: Array<{
      code: string;
      name: string;
      description: string;
      requires_paf: boolean;
      exclusion_rule: string;
      attribution: Row | null;
    }>;
  };
  'scenarios.json': {
    scenarios: Array<{ code: string; name: string; description: string; default?: boolean; params: Row }>;
  };
  'methodology.json': {
    versions: Array<{
      code: string;
      version: string;
      published_on: string | null;
      frozen: boolean;
      document_path: string;
      summary: string;
    }>;
  };
  'sectors.json': {
    regions: Array<{ code: string; name: string; note: string | null }>;
    eu27: string[];
    sectors: Array<{ code: string; name: string; isic: string; kind: string; home_bias: number }>;
    output_meur: Record<string, Record<string, number>>;
    coefficients: Record<string, Record<string, number>>;
  };
  'income-groups.json': {
    source: string;
    groups: Record<string, string[]>;
    names: Record<string, string>;
    unsure: Record<string, string>;
    not_classified: Record<string, string>;
  };
  'country-overrides.json': { regions: Row };
  'materials.json': {
    criticality_source: string;
    conflict_mineral_source: string;
    materials: Array<{
      slug: string;
      name: string;
      category: string;
      content_basis: string;
      sector: string;
      criticality: string;
      conflict_mineral: boolean;
      flags: Row;
      price: number;
      note: string;
      production: {
        year: number;
        world: number | null;
        source: string;
        note?: string;
        countries: Record<string, number>;
      };
    }>;
    other_output: Array<{ sector: string; iso3: string; value_eur: number; note: string }>;
  };
  'products.json': {
    default_source: { text: string; url: string };
    categories: Array<{ code: string; name: string }>;
    products: Array<{
      slug: string;
      name: string;
      tier: string;
      category: string;
      unit: string;
      unit_label: string;
      unit_mass_g: number | null;
      archetype: string;
      price_eur: number;
      mrio: string;
      is_arms?: boolean;
      status?: string;
      bom: Array<[string, string, number, string, number, Conf, string?]>;
    }>;
  };
  'conflicts.json': {
    source: string;
    share_source: string;
    ledger_quality: string;
    conflicts: Array<{
      slug: string;
      name: string;
      ucdp_conflict_id: number | null;
      ucdp_id_note: string | null;
      type: string;
      region: string;
      year_from: number | null;
      year_to: number | null;
      resource_linked: boolean;
      note: string;
      periods: Array<{
        label: string;
        year_from: number;
        year_to: number;
        rationale: string;
        shares: Record<string, [number | null, Conf | null]>;
      }>;
      arms_share: number;
    }>;
    ledger: Array<[string, string, number, number, number, number, number, number]>;
  };
  'harm.json': {
    rows: Array<[string, string, number, number, number | null, number | null, string, string, string?]>;
    shares: Array<[string, string, string, number, Conf]>;
    share_source: string;
    share_rationale: string;
  };
  'coicop.json': {
    consumer: { region: string };
    codes: Array<{
      code: string;
      name: string;
      group: string;
      share: number | null;
      bridge: Record<string, number>;
      left_out: Record<string, string>;
    }>;
  };
}

const CONF_RANK: Record<Conf, number> = { low: 0, medium: 1, high: 2 };

export function expandRegister(f: Fixtures, countries: CountryRow[]): Record<string, Row[]> {
  const t: Record<string, Row[]> = {};
  t.impact_sources = f['sources.json'].sources.map(({ releases: _r, licence, ...s }) => ({
    ...s,
    licence_name: licence?.name ?? null,
    licence_url: licence?.url ?? null,
    licence_spdx: licence?.spdx ?? null,
  }));
  t.impact_source_releases = f['sources.json'].sources.flatMap((s) =>
    s.releases.map((r) => ({ source: s.code, ...r })),
  );
  t.impact_channels = f['channels.json'].channels.map((c, i) => ({ ...c, ordinal: i + 1 }));
  t.impact_scenarios = f['scenarios.json'].scenarios.map((s, i) => ({
    code: s.code,
    name: s.name,
    description: s.description,
    is_default: s.default === true,
    params: s.params,
    ordinal: i + 1,
  }));
  t.impact_methodology_versions = f['methodology.json'].versions.map((m) => ({
    code: m.code,
    version: m.version,
    published_on: m.published_on,
    summary: m.summary,
    frozen: m.frozen,
    document_path: m.document_path,
    document_sha256: '',
    links: { document: m.document_path },
  }));
  const sec = f['sectors.json'];
  t.impact_mrio_regions = sec.regions.map((r, i) => ({ ...r, ordinal: i + 1 }));
  t.impact_sectors = sec.sectors.map((s, i) => ({
    code: s.code,
    name: s.name,
    isic: s.isic,
    kind: s.kind,
    ordinal: i + 1,
  }));
  t.impact_countries = countries as unknown as Row[];

  const mat = f['materials.json'];
  t.impact_materials = mat.materials.map((m) => ({
    slug: m.slug,
    name: m.name,
    category: m.category,
    unit: 'kg',
    content_basis: m.content_basis,
    sector: m.sector,
    flags: { ...m.flags, conflict_mineral: m.conflict_mineral },
    criticality_level: m.criticality,
    criticality_source: mat.criticality_source,
    conflict_mineral: m.conflict_mineral,
    conflict_mineral_source: m.conflict_mineral
      ? mat.conflict_mineral_source
      : `Not listed in ${mat.conflict_mineral_source}`,
    price_eur_per_kg: m.price,
    price_source: 'trio-demo',
    note: m.note,
  }));
  t.impact_material_world = mat.materials.map((m) => ({
    material: m.slug,
    year: m.production.year,
    unit: 't',
    world_total: m.production.world,
    source: m.production.source,
    quality: 'estimated',
    note: m.production.note ?? null,
  }));
  t.impact_material_production = mat.materials.flatMap((m) =>
    Object.entries(m.production.countries).map(([iso3, qty]) => ({
      material: m.slug,
      year: m.production.year,
      iso3,
      qty,
      quality: 'estimated',
      source: m.production.source,
    })),
  );
  t.impact_sector_other_output = mat.other_output.map((o) => ({ ...o, source: 'trio-demo' }));

  const prod = f['products.json'];
  const units = new Map(prod.products.map((p) => [p.slug, p.unit]));
  const materials = new Set(mat.materials.map((m) => m.slug));
  t.impact_product_categories = prod.categories;
  t.impact_bom_lines = prod.products.flatMap((p) =>
    p.bom.map(([role, ref, qty, unit, loss, confidence, note], i) => {
      const [kind, key] = [ref.slice(0, 2), ref.slice(2)];
      const type = kind === 'm:' ? 'material' : kind === 'p:' ? 'product' : kind === 'u:' ? 'unmodelled' : null;
      if (!type) throw new Error(`products.json ${p.slug} line ${i + 1}: component '${ref}' is not m:, p: or u:`);
      if (type === 'material' && !materials.has(key))
        throw new Error(`products.json ${p.slug} line ${i + 1}: no material '${key}'`);
      if (type === 'product' && !units.has(key))
        throw new Error(`products.json ${p.slug} line ${i + 1}: no product '${key}'`);
      return {
        product: p.slug,
        line: i + 1,
        role,
        component_type: type,
        component_key: type === 'unmodelled' ? null : key,
        component_name:
          type === 'unmodelled'
            ? key
            : type === 'material'
              ? mat.materials.find((m) => m.slug === key)!.name
              : prod.products.find((x) => x.slug === key)!.name,
        qty,
        unit,
        loss_factor: loss,
        source_text: prod.default_source.text,
        source_url: prod.default_source.url,
        confidence,
        note: note ?? null,
      };
    }),
  );
  t.impact_products = prod.products.map((p) => {
    const lines = t.impact_bom_lines!.filter((l) => l.product === p.slug);
    const modelled = lines.filter((l) => l.component_type !== 'unmodelled');
    const confidence = modelled.length
      ? modelled.map((l) => l.confidence as Conf).reduce((a, b) => (CONF_RANK[b] < CONF_RANK[a] ? b : a))
      : null;
    const [region, sector] = p.mrio.split(':');
    return {
      slug: p.slug,
      name: p.name,
      tier: p.tier,
      category: p.category,
      unit: p.unit,
      unit_label: p.unit_label,
      unit_mass_g: p.unit_mass_g,
      archetype: p.archetype,
      status: p.status ?? 'illustrative',
      is_arms: p.is_arms === true,
      complete: modelled.length === lines.length,
      bom_confidence: confidence,
      price_eur: p.price_eur,
      price_source: 'trio-demo',
      mrio_region: region,
      mrio_sector: sector,
      note: null,
    };
  });

  t.impact_product_raw_inputs = rawInputs(
    t.impact_products as unknown as Product[],
    t.impact_bom_lines as unknown as BomLine[],
    t.impact_materials as unknown as Material[],
  );

  const con = f['conflicts.json'];
  const scenarios = f['scenarios.json'].scenarios;
  t.impact_conflicts = con.conflicts.map(({ periods: _p, arms_share: _a, ...k }) => ({ ...k, source: con.source }));
  t.impact_conflict_periods = [];
  t.impact_conflict_shares = [];
  for (const k of con.conflicts) {
    for (const s of scenarios) {
      k.periods.forEach((p, i) => {
        t.impact_conflict_periods!.push({
          conflict: k.slug,
          scenario: s.code,
          label: p.label,
          year_from: p.year_from,
          year_to: p.year_to,
          rationale: p.rationale,
          ordinal: i + 1,
        });
        for (const [sector, [share, confidence]] of Object.entries(p.shares))
          t.impact_conflict_shares!.push({
            conflict: k.slug,
            scenario: s.code,
            label: p.label,
            sector,
            share,
            confidence,
            source: con.share_source,
          });
        // The scenario that counts arms manufacture has its share in its own periods.
        if ((s.params as { arms?: boolean }).arms)
          t.impact_conflict_shares!.push({
            conflict: k.slug,
            scenario: s.code,
            label: p.label,
            sector: 'ARMS',
            share: k.arms_share,
            confidence: 'low',
            source: con.share_source,
          });
      });
    }
  }
  t.impact_conflict_ledger = con.ledger.map(([conflict, iso3, year, events, best, low, high, precise]) => ({
    conflict,
    iso3,
    year,
    events,
    deaths_best: best,
    deaths_low: low,
    deaths_high: high,
    precise_events: precise,
    quality: con.ledger_quality,
    source: con.source,
  }));

  const harm = f['harm.json'];
  const c1 = new Map<string, Row>();
  for (const l of t.impact_conflict_ledger) {
    const key = `${l.iso3}|${l.year}`;
    const row = c1.get(key) ?? {
      iso3: l.iso3,
      channel: 'C1',
      year: l.year,
      deaths: 0,
      injuries: null,
      events: 0,
      paf: null,
      quality: con.ledger_quality,
      source: con.source,
      note: 'sum of the conflict ledger',
    };
    row.deaths = (row.deaths as number) + (l.deaths_best as number);
    row.events = (row.events as number) + (l.events as number);
    c1.set(key, row);
  }
  t.impact_harm_counted = [
    ...c1.values(),
    ...harm.rows.map(([channel, iso3, year, deaths, injuries, paf, quality, source, note]) => ({
      iso3,
      channel,
      year,
      deaths,
      injuries,
      events: null,
      paf,
      quality,
      source,
      note: note ?? null,
    })),
  ];
  t.impact_harm_sector_shares = harm.shares.map(([channel, iso3, sector, share, confidence]) => ({
    channel,
    iso3,
    sector,
    share,
    confidence,
    source: harm.share_source,
    rationale: harm.share_rationale,
  }));

  const coicop = f['coicop.json'].codes;
  t.impact_coicop = coicop.map((c) => ({
    code: c.code,
    level: c.code.includes('-') ? 'group' : 'division',
    parent: c.code.includes('-') ? c.code.slice(0, 2) : null,
    name: c.name,
    group_code: c.group,
    share_of_spend: c.share,
    share_source: c.share === null ? null : 'trio-demo',
    note: 'Title from COICOP 2018 (unsd-coicop); share and bridge illustrative (trio-demo).',
  }));
  t.impact_coicop_bridge = coicop.flatMap((c) =>
    Object.entries(c.bridge).map(([sector, share]) => ({ code: c.code, sector, share })),
  );
  t.impact_coicop_left_out = coicop.flatMap((c) =>
    Object.entries(c.left_out).map(([industry, why]) => ({ code: c.code, industry, why })),
  );
  return t;
}

/** Each product's bill of materials flattened to raw inputs (skipping products on a cycle). */
function rawInputs(products: Product[], bom: BomLine[], materials: Material[]): Row[] {
  const { order } = checkBom(products, bom, materials);
  const lines = linesByProduct(bom);
  const bySlug = new Map(products.map((p) => [p.slug, p]));
  const mats = new Map(materials.map((m) => [m.slug, m]));
  return order.flatMap((slug) =>
    flattenCentral(slug, lines, bySlug, mats).map((q, i) => ({
      product: slug,
      seq: i + 1,
      type: q.material ? 'material' : 'unmodelled',
      key: q.material,
      name: q.name,
      qty: q.qty,
      unit: q.unit,
    })),
  );
}

/** The input-output table from one technology matrix, regional outputs and home bias (sectors.json). */
export function expandMrio(f: Fixtures): Record<string, Row[]> {
  const sec = f['sectors.json'];
  const regions = sec.regions.map((r) => r.code);
  const output: Row[] = [];
  const sourcing: Row[] = [];
  const coefficients: Row[] = [];
  for (const r of regions)
    for (const s of sec.sectors) output.push({ region: r, sector: s.code, output_meur: sec.output_meur[r]![s.code]! });
  for (const s of sec.sectors) {
    const world = regions.reduce((a, r) => a + sec.output_meur[r]![s.code]!, 0);
    for (const from of regions) {
      for (const to of regions) {
        const share = (from === to ? s.home_bias : 0) + (1 - s.home_bias) * (sec.output_meur[from]![s.code]! / world);
        sourcing.push({ sector: s.code, from_region: from, to_region: to, share });
      }
    }
  }
  const shareOf = new Map(sourcing.map((x) => [`${x.sector}|${x.from_region}|${x.to_region}`, x.share as number]));
  for (const [fromSector, row] of Object.entries(sec.coefficients)) {
    for (const [toSector, a] of Object.entries(row)) {
      for (const from of regions)
        for (const to of regions)
          coefficients.push({
            from_region: from,
            from_sector: fromSector,
            to_region: to,
            to_sector: toSector,
            value: a * shareOf.get(`${fromSector}|${from}|${to}`)!,
          });
    }
  }
  return { impact_mrio_output: output, impact_mrio_sourcing: sourcing, impact_mrio_coefficients: coefficients };
}
