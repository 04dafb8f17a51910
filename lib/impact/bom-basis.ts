/**
 * What a product's bill of materials rests on (issue 33, methodology v3 §13): its lines counted by the
 * basis of their provenance (published, derived, assumption, illustrative; a line with none is read as
 * illustrative, as the engine reads it), the share of lines on published or derived values, and the
 * sources the lines name, most lines first. Served with the register facts of /products and
 * /product/{slug}, so it is there while figures are withheld. Pure.
 */
import { BASES, BASIS_LABELS, type Basis } from './basis.ts';

/** One group of a product's lines: how many rest on one basis from one source. */
export interface BomBasisCount {
  product: string;
  basis: string | null;
  source: string | null;
  source_name: string | null;
  lines: number;
}

export interface BomBasis {
  lines: Record<Basis, number>;
  /** share of the lines resting on published or derived values; null for a product without lines */
  published_or_derived: number | null;
  sources: Array<{ code: string; name: string; lines: number }>;
  summary: string;
}

export function bomBasisOf(counts: readonly BomBasisCount[]): BomBasis {
  const lines = Object.fromEntries(BASES.map((b) => [b, 0])) as Record<Basis, number>;
  const sources = new Map<string, { code: string; name: string; lines: number }>();
  for (const c of counts) {
    const basis = (BASES as readonly string[]).includes(c.basis ?? '') ? (c.basis as Basis) : 'illustrative';
    lines[basis] += c.lines;
    if (c.source) {
      const s = sources.get(c.source) ?? { code: c.source, name: c.source_name ?? c.source, lines: 0 };
      s.lines += c.lines;
      sources.set(c.source, s);
    }
  }
  const total = BASES.reduce((a, b) => a + lines[b], 0);
  const share = total ? (lines.published + lines.derived) / total : null;
  const parts = BASES.filter((b) => lines[b] > 0).map((b) => `${lines[b]} on ${BASIS_LABELS[b]}`);
  return {
    lines,
    published_or_derived: share,
    sources: [...sources.values()].sort((a, b) => b.lines - a.lines || (a.code < b.code ? -1 : 1)),
    summary: total
      ? `${total} bill-of-materials line${total === 1 ? '' : 's'}: ${parts.join(', ')}.`
      : 'No bill of materials.',
  };
}
