/**
 * Bills of materials as a graph: does every line resolve, is there a cycle, in which order can
 * products be computed (components first), and what raw materials does one unit need. Pure.
 */
import type { BomLine, Material, Product } from './types.ts';

export interface BomCheck {
  /** Lines naming a material or product that does not exist, or in a unit that does not fit it. */
  unresolved: Array<{ product: string; line: number; reason: string }>;
  /** Lines v1 does not model (component_type 'unmodelled'): documented, they make a product incomplete. */
  unmodelled: Array<{ product: string; line: number }>;
  /** Each cycle as the products on it. */
  cycles: string[][];
  /** Products that can be computed, components before the products using them. */
  order: string[];
  /** Products that cannot: on a cycle, or using one that is, or with an unresolved line. */
  blocked: string[];
}

/** kg of material, or units of the component product, per line unit; null if the unit does not fit. */
export function unitFactor(
  line: Pick<BomLine, 'component_type' | 'unit'>,
  componentUnit: string | null,
): number | null {
  if (line.component_type === 'material' || componentUnit === 'kg') {
    if (line.unit === 'kg') return 1;
    if (line.unit === 'g') return 0.001;
    return null;
  }
  return line.unit === componentUnit ? 1 : null;
}

export function linesByProduct(bom: BomLine[]): Map<string, BomLine[]> {
  const map = new Map<string, BomLine[]>();
  for (const line of bom) {
    const list = map.get(line.product) ?? [];
    list.push(line);
    map.set(line.product, list);
  }
  for (const list of map.values()) list.sort((a, b) => a.line - b.line);
  return map;
}

export function checkBom(products: Product[], bom: BomLine[], materials: Material[]): BomCheck {
  const productUnit = new Map(products.map((p) => [p.slug, p.unit]));
  const materialSet = new Set(materials.map((m) => m.slug));
  const lines = linesByProduct(bom);
  const unresolved: BomCheck['unresolved'] = [];
  const unmodelled: BomCheck['unmodelled'] = [];
  const bad = new Set<string>();
  for (const line of bom) {
    if (!productUnit.has(line.product)) {
      unresolved.push({ product: line.product, line: line.line, reason: 'line of an unknown product' });
      continue;
    }
    if (line.component_type === 'unmodelled') {
      unmodelled.push({ product: line.product, line: line.line });
      continue;
    }
    const key = line.component_key;
    const known = key !== null && (line.component_type === 'material' ? materialSet.has(key) : productUnit.has(key));
    let reason: string | null = null;
    if (!known) reason = `${line.component_type} '${key ?? ''}' does not exist`;
    else if (unitFactor(line, line.component_type === 'product' ? productUnit.get(key!)! : null) === null)
      reason = `unit '${line.unit}' does not fit the component`;
    else if (!(line.qty >= 0) || !Number.isFinite(line.qty)) reason = 'quantity is negative or not finite';
    if (reason) {
      unresolved.push({ product: line.product, line: line.line, reason });
      bad.add(line.product);
    }
  }

  // Depth-first search over product → component-product edges; a grey node met again closes a cycle.
  const state = new Map<string, 'grey' | 'black'>();
  const order: string[] = [];
  const cycles: string[][] = [];
  const blocked = new Set<string>(bad);
  const stack: string[] = [];
  const visit = (slug: string): boolean => {
    const s = state.get(slug);
    if (s === 'black') return !blocked.has(slug);
    if (s === 'grey') {
      cycles.push(stack.slice(stack.indexOf(slug)));
      stack.slice(stack.indexOf(slug)).forEach((p) => blocked.add(p));
      return false;
    }
    state.set(slug, 'grey');
    stack.push(slug);
    let ok = !bad.has(slug);
    for (const line of lines.get(slug) ?? []) {
      if (line.component_type === 'product' && line.component_key && productUnit.has(line.component_key)) {
        if (!visit(line.component_key)) ok = false;
      }
    }
    stack.pop();
    state.set(slug, 'black');
    if (!ok) blocked.add(slug);
    else order.push(slug);
    return ok;
  };
  for (const p of [...products].sort((a, b) => (a.slug < b.slug ? -1 : 1))) visit(p.slug);
  return { unresolved, unmodelled, cycles, order: order.filter((p) => !blocked.has(p)), blocked: [...blocked].sort() };
}

export interface RawQuantity {
  material: string | null;
  name: string;
  qty: number;
  unit: string;
}

/**
 * The raw materials one unit needs, losses included, at central quantities (explain's `quantities`):
 * materials in kg, unmodelled parts in their own unit (kg when given in g). Sorted by material.
 */
export function flattenCentral(
  slug: string,
  lines: Map<string, BomLine[]>,
  products: Map<string, Product>,
  materials: Map<string, Material>,
): RawQuantity[] {
  const acc = new Map<string, RawQuantity>();
  const walk = (p: string, factor: number) => {
    for (const line of lines.get(p) ?? []) {
      const component = line.component_type === 'product' ? products.get(line.component_key!) : undefined;
      const unitK = unitFactor(line, component ? component.unit : null);
      const q = factor * line.qty * (1 + line.loss_factor);
      if (line.component_type === 'material') {
        const m = materials.get(line.component_key!)!;
        add(acc, `m:${m.slug}`, { material: m.slug, name: m.name, qty: q * unitK!, unit: 'kg' });
      } else if (component) {
        walk(component.slug, q * unitK!);
      } else {
        const inKg = line.unit === 'g' || line.unit === 'kg';
        const name = line.component_name ?? line.role;
        add(acc, `u:${name}:${inKg ? 'kg' : line.unit}`, {
          material: null,
          name,
          qty: inKg ? q * (line.unit === 'g' ? 0.001 : 1) : q,
          unit: inKg ? 'kg' : line.unit,
        });
      }
    }
  };
  walk(slug, 1);
  return [...acc.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, q]) => q);
}

function add(acc: Map<string, RawQuantity>, key: string, q: RawQuantity) {
  const prev = acc.get(key);
  if (prev) prev.qty += q.qty;
  else acc.set(key, q);
}
