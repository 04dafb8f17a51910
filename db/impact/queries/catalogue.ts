/**
 * Register facts of the product catalogue and materials for the read API (tables of migration 004):
 * products, categories, bills of materials, raw inputs, where a product or material is used, and
 * material production. Served whatever the state of the runs (rule 3: register facts stay available).
 * Every statement is prepared once; every list has an ORDER BY so a response is the same byte for byte.
 */
import type { BomBasisCount } from '../../../lib/impact/bom-basis.ts';
import type { Db } from '../../connection.ts';
import type { BomLineFact } from '../../../lib/impact/present-product.ts';
import { statementsFor } from '../../statements.ts';

export interface ProductRow {
  slug: string;
  name: string;
  tier: string;
  category: string;
  category_name: string;
  unit: string;
  unit_label: string;
  unit_mass_g: number | null;
  archetype: string;
  status: string;
  is_arms: number;
  complete: number;
  bom_confidence: string | null;
  mrio_region: string;
  mrio_sector: string;
  bom_lines: number;
}

export interface BomLineRow extends BomLineFact {
  source_text: string;
  source_url: string;
  confidence: string;
  note: string | null;
  qty_low: number | null;
  qty_high: number | null;
  /** JSON array of the cited figures the line rests on; NULL for an authored line */
  citations: string | null;
  provenance: number | null;
}

export interface UsedInRow {
  product: string;
  name: string;
  tier: string;
  unit: string;
  line: number;
  role: string;
  qty: number;
  line_unit: string;
}

export interface MaterialRow {
  slug: string;
  name: string;
  category: string;
  unit: string;
  content_basis: string | null;
  sector: string;
  flags: string;
  criticality_level: string;
  criticality_source: string;
  conflict_mineral: number;
  conflict_mineral_source: string;
  note: string;
  price_eur_per_kg: number;
  price_source: string;
  price_provenance: number | null;
}

const PRODUCT = `SELECT p.slug, p.name, p.tier, p.category, c.name AS category_name, p.unit, p.unit_label, p.unit_mass_g, p.archetype,
  p.status, p.is_arms, p.complete, p.bom_confidence, p.mrio_region, p.mrio_sector,
  (SELECT count(*) FROM impact_bom_lines b WHERE b.product = p.slug) AS bom_lines
  FROM impact_products p JOIN impact_product_categories c ON c.code = p.category`;

const statements = statementsFor((db) => ({
  products: db.prepare(
    `${PRODUCT} WHERE (@tier IS NULL OR p.tier = @tier) AND (@category IS NULL OR p.category = @category) ORDER BY p.slug`,
  ),
  product: db.prepare(`${PRODUCT} WHERE p.slug = ?`),
  category: db.prepare('SELECT code, name FROM impact_product_categories WHERE code = ?'),
  bom: db.prepare(`SELECT product, line, role, component_type, component_key, component_name, qty, unit, loss_factor, source_text, source_url,
    confidence, note, qty_low, qty_high, citations, provenance FROM impact_bom_lines WHERE product = ? ORDER BY line`),
  allBom: db.prepare(`SELECT product, line, role, component_type, component_key, component_name, qty, unit, loss_factor
    FROM impact_bom_lines ORDER BY product, line`),
  rawInputs: db.prepare(`SELECT r.type, r.key, r.name, r.qty, r.unit, m.sector FROM impact_product_raw_inputs r
    LEFT JOIN impact_materials m ON m.slug = r.key WHERE r.product = ? ORDER BY r.seq`),
  usedIn:
    db.prepare(`SELECT b.product, p.name, p.tier, p.unit, b.line, b.role, b.qty, b.unit AS line_unit FROM impact_bom_lines b
    JOIN impact_products p ON p.slug = b.product WHERE b.component_type = ? AND b.component_key = ? ORDER BY b.product, b.line`),
  // What each product's lines rest on (issue 33): lines by the basis and source of their provenance.
  bomBasis: db.prepare(`SELECT b.product, p.basis, p.source, s.name AS source_name, count(*) AS lines
    FROM impact_bom_lines b LEFT JOIN impact_provenance p ON p.id = b.provenance LEFT JOIN impact_sources s ON s.code = p.source
    GROUP BY b.product, p.basis, p.source ORDER BY b.product, p.basis, p.source`),
  sectors: db.prepare('SELECT code, name, kind FROM impact_sectors ORDER BY ordinal'),
  regions: db.prepare('SELECT code, name FROM impact_mrio_regions ORDER BY ordinal'),
  material:
    db.prepare(`SELECT slug, name, category, unit, content_basis, sector, flags, criticality_level, criticality_source, conflict_mineral,
    conflict_mineral_source, note, price_eur_per_kg, price_source, price_provenance FROM impact_materials WHERE slug = ?`),
  materialSlugs: db.prepare('SELECT slug FROM impact_materials ORDER BY slug').pluck(),
  productionYear: db.prepare(
    'SELECT year, unit, world_total, source, provenance FROM impact_material_world WHERE material = ? ORDER BY year DESC LIMIT 1',
  ),
  // Unknown quantities (withheld, not available) after the known ones: listed, never as zero.
  production:
    db.prepare(`SELECT p.iso3, c.name, p.qty, p.quality FROM impact_material_production p JOIN impact_countries c ON c.iso3 = p.iso3
    WHERE p.material = ? AND p.year = ? ORDER BY p.qty IS NULL, p.qty DESC, p.iso3`),
  workByActivity: db
    .prepare("SELECT EXISTS (SELECT 1 FROM impact_harm_counted WHERE channel = 'C2' AND activity <> 'all')")
    .pluck(),
  // Producing countries (latest record) and whether each reports work injuries for an activity in a window.
  workReports:
    db.prepare(`SELECT p.iso3, c.name, EXISTS (SELECT 1 FROM impact_harm_counted h WHERE h.iso3 = p.iso3 AND h.channel = 'C2'
    AND h.activity = @activity AND h.year BETWEEN @from AND @to) AS reported
    FROM impact_material_production p JOIN impact_countries c ON c.iso3 = p.iso3
    WHERE p.material = @material AND p.year = (SELECT max(year) FROM impact_material_world WHERE material = @material)
    AND (p.qty IS NULL OR p.qty > 0) ORDER BY p.iso3`),
}));

export function catalogueReads(db: Db) {
  const {
    products,
    product,
    category,
    bom,
    allBom,
    rawInputs,
    usedIn,
    bomBasis,
    sectors,
    regions,
    material,
    materialSlugs,
    productionYear,
    production,
    workReports,
    workByActivity,
  } = statements(db);

  return {
    products: (filter: { tier: string | null; category: string | null }) => products.all(filter) as ProductRow[],
    product: (slug: string) => product.get(slug) as ProductRow | undefined,
    category: (code: string) => category.get(code) as { code: string; name: string } | undefined,
    bom: (slug: string) => bom.all(slug) as BomLineRow[],
    /** Every product's lines counted by basis and source (lib/impact/bom-basis.ts composes them). */
    bomBasis: () => bomBasis.all() as BomBasisCount[],
    /** Every line, grouped by product: what a trace walks. */
    bomByProduct(): Map<string, BomLineFact[]> {
      const out = new Map<string, BomLineFact[]>();
      for (const l of allBom.all() as BomLineFact[])
        (out.get(l.product) ?? out.set(l.product, []).get(l.product)!).push(l);
      return out;
    },
    rawInputs: (slug: string) =>
      rawInputs.all(slug) as Array<{
        type: string;
        key: string | null;
        name: string;
        qty: number;
        unit: string;
        sector: string | null;
      }>,
    usedIn: (type: 'product' | 'material', slug: string) => usedIn.all(type, slug) as UsedInRow[],
    sectors: () =>
      new Map((sectors.all() as Array<{ code: string; name: string; kind: string }>).map((s) => [s.code, s])),
    regions: () => new Map((regions.all() as Array<{ code: string; name: string }>).map((r) => [r.code, r.name])),
    material: (slug: string) => material.get(slug) as MaterialRow | undefined,
    materialSlugs: () => materialSlugs.all() as string[],
    /** The latest production record of a material, with its countries, largest first; null when it has none. */
    production(slug: string) {
      const year = productionYear.get(slug) as
        | { year: number; unit: string; world_total: number | null; source: string; provenance: number | null }
        | undefined;
      if (!year) return null;
      return {
        ...year,
        countries: production.all(slug, year.year) as Array<{
          iso3: string;
          name: string;
          qty: number | null;
          quality: string;
        }>,
      };
    },
    /** Whether the register counts work injuries per activity (the published register; the demo counts whole countries). */
    countsWorkByActivity: () => workByActivity.get() === 1,
    /** Producing countries of a material and whether each reports work injuries for the activity in [from, to]. */
    workReports: (material: string, activity: string, from: number, to: number) =>
      workReports.all({ material, activity, from, to }) as Array<{ iso3: string; name: string; reported: number }>,
  };
}

export type CatalogueReads = ReturnType<typeof catalogueReads>;
