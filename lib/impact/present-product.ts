/**
 * Register facts of a product that take more than a SELECT: its `trace` (the bill of materials
 * followed down through every semi-finished product, as a flat list in depth-first order, so that a
 * reader sees where each raw input enters) and its `industries` (the input-output industry its last
 * stage is made in, and the extraction industries of its raw materials). Served while figures are
 * withheld too: none of it is a figure. Pure.
 */

export interface BomLineFact {
  product: string;
  line: number;
  role: string;
  component_type: string;
  component_key: string | null;
  component_name: string | null;
  qty: number;
  unit: string;
  loss_factor: number;
}

export interface TraceNode {
  depth: number;
  /** The product whose bill of materials holds this line. */
  parent: string;
  line: number;
  role: string;
  type: string;
  key: string | null;
  name: string | null;
  qty: number;
  unit: string;
  loss_factor: number;
}

/** A bill of materials deeper than this is refused by the run's gate long before; it bounds the walk. */
const MAX_DEPTH = 12;
const MAX_NODES = 2000;

/**
 * Every line of `slug`'s bill of materials and, under each semi-finished product, that product's
 * lines, depth first. Null when the walk meets a cycle or a product the register does not have: the
 * bill of materials does not resolve (gate bom_resolves), so there is nothing honest to trace.
 */
export function traceOf(
  slug: string,
  lines: ReadonlyMap<string, readonly BomLineFact[]>,
): { depth: number; nodes: TraceNode[] } | null {
  const nodes: TraceNode[] = [];
  let deepest = 0;
  const walk = (product: string, depth: number, path: string[]): boolean => {
    for (const l of lines.get(product) ?? []) {
      if (nodes.length >= MAX_NODES) return false;
      nodes.push({
        depth,
        parent: product,
        line: l.line,
        role: l.role,
        type: l.component_type,
        key: l.component_key,
        name: l.component_name,
        qty: l.qty,
        unit: l.unit,
        loss_factor: l.loss_factor,
      });
      deepest = Math.max(deepest, depth);
      if (l.component_type !== 'product') continue;
      const child = l.component_key;
      if (child === null || !lines.has(child) || path.includes(child) || depth >= MAX_DEPTH) return false;
      if (!walk(child, depth + 1, [...path, child])) return false;
    }
    return true;
  };
  return walk(slug, 1, [slug]) ? { depth: deepest, nodes } : null;
}

export interface IndustryFact {
  sector: string;
  name: string;
  kind: string;
  role: 'last_stage' | 'raw_material';
  region: string | null;
  region_name: string | null;
  materials: string[];
}

/** The product's own industry (where its last stage is made), then its raw materials' industries. */
export function industriesOf(
  product: { mrio_region: string; mrio_sector: string },
  sectors: ReadonlyMap<string, { name: string; kind: string }>,
  regions: ReadonlyMap<string, string>,
  rawMaterials: ReadonlyArray<{ key: string; sector: string }>,
): IndustryFact[] {
  const own = sectors.get(product.mrio_sector);
  const out: IndustryFact[] = [
    {
      sector: product.mrio_sector,
      name: own?.name ?? product.mrio_sector,
      kind: own?.kind ?? 'unknown',
      role: 'last_stage',
      region: product.mrio_region,
      region_name: regions.get(product.mrio_region) ?? null,
      materials: [],
    },
  ];
  const bySector = new Map<string, string[]>();
  for (const m of rawMaterials) (bySector.get(m.sector) ?? bySector.set(m.sector, []).get(m.sector)!).push(m.key);
  for (const [sector, materials] of [...bySector].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const s = sectors.get(sector);
    out.push({
      sector,
      name: s?.name ?? sector,
      kind: s?.kind ?? 'unknown',
      role: 'raw_material',
      region: null,
      region_name: null,
      materials: [...new Set(materials)].sort(),
    });
  }
  return out;
}
