/**
 * /search across the register's products, materials, conflicts, countries and channels (the
 * document leaves the shape open; docs/decisions.md "Impact attribution" fixes it). The register is
 * small (hundreds of names), so matching is a scan: case- and accent-insensitive, on each entry's key
 * (slug, ISO code or channel code) and its names. Each match says how it matched, and matches are
 * ranked by how: exact key, exact name, key or name starts with q, a word of the name starts with q,
 * q anywhere. Ties go by type (the order above) and then name. Pure.
 */

export const SEARCH_TYPES = ['product', 'material', 'conflict', 'country', 'channel'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
export const MATCH_KINDS = ['key', 'name', 'prefix', 'word', 'substring'] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

export interface SearchEntry {
  type: SearchType;
  key: string;
  name: string;
  /** Other codes or names it is known by (ISO alpha-2, a conflict's region …). */
  aliases?: string[];
}

export interface SearchMatch extends SearchEntry {
  match: MatchKind;
  /** The text that matched. */
  matched: string;
}

/** Lower case, accents removed, punctuation as spaces: "Côte d'Ivoire" → "cote d ivoire". */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function kindOf(q: string, text: string, isKey: boolean): MatchKind | null {
  const t = fold(text);
  if (t === q) return isKey ? 'key' : 'name';
  if (t.startsWith(q)) return 'prefix';
  if (t.split(' ').some((w, i, words) => i > 0 && words.slice(i).join(' ').startsWith(q))) return 'word';
  if (t.includes(q)) return 'substring';
  return null;
}

const RANK = new Map(MATCH_KINDS.map((k, i) => [k, i]));
const TYPE_RANK = new Map(SEARCH_TYPES.map((t, i) => [t, i]));

/** Every entry matching q, best first. q is folded the same way as the entries. */
export function searchEntries(entries: readonly SearchEntry[], rawQ: string): SearchMatch[] {
  const q = fold(rawQ);
  if (q === '') return [];
  const out: SearchMatch[] = [];
  for (const e of entries) {
    let best: { kind: MatchKind; text: string } | null = null;
    const candidates: Array<[string, boolean]> = [
      [e.key, true],
      [e.name, false],
      ...(e.aliases ?? []).map((a): [string, boolean] => [a, true]),
    ];
    for (const [text, isKey] of candidates) {
      const kind = kindOf(q, text, isKey);
      if (kind && (!best || RANK.get(kind)! < RANK.get(best.kind)!)) best = { kind, text };
    }
    if (best) out.push({ ...e, match: best.kind, matched: best.text });
  }
  return out.sort(
    (x, y) =>
      RANK.get(x.match)! - RANK.get(y.match)! ||
      TYPE_RANK.get(x.type)! - TYPE_RANK.get(y.type)! ||
      (x.name < y.name ? -1 : x.name > y.name ? 1 : 0),
  );
}
