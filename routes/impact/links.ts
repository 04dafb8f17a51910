/**
 * The impact API's base address and the links its payloads carry. Links are paths under the base
 * (the service does not know the host it is reached by behind a proxy), stable because slugs and codes
 * never change (rule 5).
 */
import type { UsedInRow } from '../../db/impact/queries/catalogue.ts';

export const IMPACT_BASE = '/impact/v1';

const enc = encodeURIComponent;

export const links = {
  product: (slug: string) => ({
    self: `${IMPACT_BASE}/product/${enc(slug)}`,
    contributions: `${IMPACT_BASE}/product/${enc(slug)}/contributions`,
    explain: `${IMPACT_BASE}/product/${enc(slug)}/explain`,
  }),
  material: (slug: string) => ({ self: `${IMPACT_BASE}/material/${enc(slug)}` }),
  conflict: (slug: string) => ({ self: `${IMPACT_BASE}/conflict/${enc(slug)}` }),
  country: (iso3: string) => ({ self: `${IMPACT_BASE}/country/${enc(iso3)}` }),
  channel: (code: string) => ({ self: `${IMPACT_BASE}/channel/${enc(code)}` }),
  run: (id: number) => ({ self: `${IMPACT_BASE}/runs/${id}` }),
  products: () => `${IMPACT_BASE}/products`,
};

/** A product as other payloads refer to it (ProductRef). */
export function productRef(p: { slug: string; name: string; tier: string; unit: string }) {
  return { slug: p.slug, name: p.name, tier: p.tier, unit: p.unit, links: { self: links.product(p.slug).self } };
}

/** A bill-of-materials line that uses a product or material, as `used_in` lists it. */
export function usedInItem(u: UsedInRow) {
  return {
    product: productRef({ slug: u.product, name: u.name, tier: u.tier, unit: u.unit }),
    line: u.line,
    role: u.role,
    qty: u.qty,
    unit: u.line_unit,
  };
}
