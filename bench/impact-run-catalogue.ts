/**
 * A synthetic catalogue for `npm run bench -- impact-run`: the demo register's channels, sectors,
 * countries, harm, conflicts, input-output table and scenarios, with its materials and products
 * replaced by generated ones (default 200 materials, 2,000 products). Deterministic: the same sizes
 * give the same catalogue. Shapes follow the demo: a material is produced in 3–10 of the countries
 * that have harm, a semi-finished product has 2–6 material lines, a finished one 3–10 lines mixing
 * materials and semi-finished products (only earlier ones, so there is no cycle).
 */
import { hashKey, uniform } from '../lib/impact/random.ts';
import type { BomLine, Material, Product, Production, Register } from '../lib/impact/types.ts';

const EXTRACTION = ['AGR', 'MIN-ORE', 'MIN-OTH'];

export function syntheticCatalogue(demo: Register, materials = 200, products = 2000): Register {
  const h = hashKey('catalogue');
  let i = 0;
  const u = () => uniform(2026, h, i++);
  const pick = <T>(list: readonly T[]) => list[Math.floor(u() * list.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(u() * (hi - lo + 1));

  const harmCountries = [...new Set([...demo.harm.map((r) => r.iso3), ...demo.ledger.map((r) => r.iso3)])].sort();
  const mats: Material[] = [];
  const production: Production[] = [];
  for (let m = 0; m < materials; m++) {
    const slug = `mat-${String(m).padStart(3, '0')}`;
    mats.push({
      slug,
      name: `Material ${m}`,
      sector: pick(EXTRACTION),
      price_eur_per_kg: Math.exp(-2 + u() * 10),
      price_source: 'trio-demo',
    });
    const countries = new Map<string, number>();
    const k = int(3, 10);
    while (countries.size < k) countries.set(pick(harmCountries), Math.round(Math.exp(u() * 14)));
    const listed = [...countries.values()].reduce((a, b) => a + b, 0);
    production.push({
      material: slug,
      year: 2023,
      unit: 't',
      world_total: Math.round(listed * (1.05 + u())),
      source: 'usgs-mcs',
      note: null,
      countries: [...countries.entries()]
        .sort()
        .map(([iso3, qty]) => ({ iso3, qty, quality: 'estimated', source: 'usgs-mcs' })),
    });
  }

  const prods: Product[] = [];
  const bom: BomLine[] = [];
  const semis = Math.round(products * 0.2);
  const columns = demo.products.map((p) => [p.mrio_region, p.mrio_sector] as const);
  for (let p = 0; p < products; p++) {
    const semi = p < semis;
    const slug = `${semi ? 'semi' : 'prod'}-${String(p).padStart(4, '0')}`;
    const [mrio_region, mrio_sector] = pick(columns);
    const lines = semi ? int(2, 6) : int(3, 10);
    for (let l = 1; l <= lines; l++) {
      const usesSemi = !semi && p > 0 && u() < 0.4;
      const component = usesSemi ? prods[int(0, Math.min(p, semis) - 1)]! : null;
      bom.push({
        product: slug,
        line: l,
        role: `part ${l}`,
        component_type: component ? 'product' : 'material',
        component_key: component ? component.slug : pick(mats).slug,
        component_name: null,
        qty: component ? int(1, 5) : Math.exp(u() * 6 - 4),
        unit: component ? 'piece' : 'kg',
        loss_factor: Math.round(u() * 30) / 100,
        confidence: pick(['high', 'medium', 'medium', 'low'] as const),
      });
    }
    prods.push({
      slug,
      name: `Product ${p}`,
      tier: semi ? 'semi_finished' : 'finished',
      unit: 'piece',
      unit_mass_g: Math.round(Math.exp(u() * 10)),
      is_arms: u() < 0.02,
      complete: true,
      bom_confidence: 'medium',
      price_eur: Math.round(Math.exp(u() * 8)),
      price_source: 'trio-demo',
      mrio_region,
      mrio_sector,
    });
  }
  return {
    ...demo,
    data_version: `synthetic-${materials}-${products}`,
    materials: mats,
    production,
    other_output: [],
    products: prods,
    bom,
  };
}
