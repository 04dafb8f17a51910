/**
 * Products and their bills of materials (fixtures/impact/products.json), for either register: each
 * line spelled out from its compact row, checked to name an existing material or product, with its
 * provenance; the lines that take cited figures (the published register, bom-evidence.ts) replace or
 * join the authored ones. Derived columns (a product's `complete` and `bom_confidence`) and each
 * product's raw inputs (the bill flattened through semi-finished products) are computed here. Pure.
 */
import { checkBom, flattenCentral, linesByProduct } from '../bom.ts';
import type { EvidenceLine } from '../import/bom-evidence.ts';
import type { ProvenanceTable } from '../import/provenance.ts';
import type { BomLine, Material, Product } from '../types.ts';
import type { Tables } from './common.ts';
import { decodeRows, type Conf, type Fixtures, type Row } from './shapes.ts';

const CONF_RANK: Record<Conf, number> = { low: 0, medium: 1, high: 2 };

interface LineIn {
  role: string;
  component: string;
  qty: number;
  unit: string;
  loss_factor: number;
  confidence: Conf;
  note: string | null;
}

export function productRows(
  f: Fixtures,
  materials: ReadonlyArray<{ slug: string; name: string }>,
  prov: ProvenanceTable,
  evidence: readonly EvidenceLine[] = [],
): Tables {
  const prod = f['products.json'];
  const names = new Map<string, string>([
    ...materials.map((m) => [`m:${m.slug}`, m.name] as const),
    ...prod.products.map((p) => [`p:${p.slug}`, p.name] as const),
  ]);
  const illustrative = prov.id({
    source: 'trio-demo',
    release: null,
    basis: 'illustrative',
    method: prod.default_source.text,
    file: 'fixtures/impact/products.json',
  });
  const priceProvenance = prov.id({
    source: 'trio-demo',
    release: null,
    basis: 'illustrative',
    method: 'Purchaser price per unit, 2023, authored for the demo.',
    file: 'fixtures/impact/products.json',
  });
  const bom: Row[] = [];
  for (const p of prod.products) {
    const authored = decodeRows<LineIn & Row>(prod.bom_columns, p.bom, `products.json ${p.slug}`);
    const mine = evidence.filter((e) => e.spec.product === p.slug);
    const lines: Row[] = authored.map((l, i) => {
      const cited = mine.find((e) => e.spec.line === i + 1);
      return cited ? citedLine(cited, prov) : { ...authoredLine(l, prod.default_source), provenance: illustrative };
    });
    for (const e of mine.filter((x) => x.spec.line === undefined)) lines.push(citedLine(e, prov));
    lines.forEach((l, i) => {
      const ref = l.component as string;
      const [kind, key] = [ref.slice(0, 2), ref.slice(2)];
      const type = kind === 'm:' ? 'material' : kind === 'p:' ? 'product' : kind === 'u:' ? 'unmodelled' : null;
      if (!type) throw new Error(`products.json ${p.slug} line ${i + 1}: component '${ref}' is not m:, p: or u:`);
      if (type !== 'unmodelled' && !names.has(ref))
        throw new Error(`products.json ${p.slug} line ${i + 1}: no ${type} '${key}'`);
      const { component: _c, ...rest } = l;
      bom.push({
        product: p.slug,
        line: i + 1,
        ...rest,
        component_type: type,
        component_key: type === 'unmodelled' ? null : key,
        component_name: type === 'unmodelled' ? key : names.get(ref)!,
      });
    });
  }
  const products = prod.products.map((p) => {
    const lines = bom.filter((l) => l.product === p.slug);
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
      status: lines.some((l) => l.citations !== null) ? 'cited in part' : (p.status ?? 'illustrative'),
      is_arms: p.is_arms === true,
      complete: modelled.length === lines.length,
      bom_confidence: confidence,
      price_eur: p.price_eur,
      price_source: 'trio-demo',
      price_provenance: priceProvenance,
      mrio_region: region,
      mrio_sector: sector,
      note: null,
    };
  });
  return {
    impact_product_categories: prod.categories,
    impact_bom_lines: bom,
    impact_products: products,
    impact_product_raw_inputs: rawInputs(
      products as unknown as Product[],
      bom as unknown as BomLine[],
      materials.map((m) => ({ ...m, sector: '', price_eur_per_kg: 1, price_source: '' })),
    ),
  };
}

function authoredLine(l: LineIn, source: { text: string; url: string }): Row {
  return {
    role: l.role,
    component: l.component,
    qty: l.qty,
    unit: l.unit,
    loss_factor: l.loss_factor,
    source_text: source.text,
    source_url: source.url,
    confidence: l.confidence,
    note: l.note ?? null,
    qty_low: null,
    qty_high: null,
    citations: null,
  };
}

function citedLine(e: EvidenceLine, prov: ProvenanceTable): Row {
  return {
    role: e.spec.role,
    component: e.spec.component,
    qty: e.qty,
    unit: e.spec.unit,
    loss_factor: e.spec.loss_factor ?? 0,
    source_text: e.source_text,
    source_url: e.source_url,
    confidence: e.confidence,
    note: e.spec.note ?? null,
    qty_low: e.qty_low,
    qty_high: e.qty_high,
    citations: e.citations.length ? e.citations : null,
    provenance: prov.id({ ...e.from, basis: e.basis, method: e.method }),
  };
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
