/**
 * What a response may be reused under, composed from the sources its figures actually used (issue 14;
 * the rule is recorded in docs/decisions.md, "Impact: licence composed from the sources used").
 *
 * A source is OPEN when its licence is one that lets anyone reuse the data for any purpose with a
 * credit (CC BY 4.0, CC0, public domain, or a permissive code licence for a package's tables), or the
 * register states its terms do (`reuse_open`, for attribution-only terms no SPDX id names: ECB
 * statistics, EU legal texts), and the register records no usage restriction for it. ILOSTAT's shipped
 * extract of April 2021 predates the ILO's CC BY 4.0 policy: the register states it is not open. Any other source is RESTRICTED: its own terms travel
 * with every figure that used it (SIPRI's terms of use are not an open licence; GBD is non-commercial).
 *
 *  - every source open (or none used): the response is CC BY 4.0, giving each source's credit;
 *  - some restricted: the response is NOT reusable under CC BY 4.0 as a whole. Its `name` says so and
 *    names each restricted source's terms; `terms` lists, per source, what may be reused and how; and
 *    each restricted source adds a `usage_restriction` caveat.
 * Pure.
 */

export interface LicensedSource {
  code: string;
  name: string;
  licence_name: string | null;
  licence_url: string | null;
  licence_spdx: string | null;
  credit: string | null;
  usage_restriction: string | null;
  /**
   * What the register states of terms no SPDX identifier names (ECB statistics, EU legal texts: reuse
   * with the source acknowledged = 1; ILOSTAT's pre-2023 extract = 0); null or absent: decided by the licence.
   */
  reuse_open?: number | null;
}

export interface SourceTerms {
  source: string;
  licence: string;
  url: string | null;
  open: boolean;
  /** What may be done with the figures that used this source, in one sentence. */
  reuse: string;
}

export interface ComposedLicence {
  name: string;
  url: string;
  /** True when the whole response may be reused under CC BY 4.0 with the credits. */
  open: boolean;
  restrictions: Array<{ source: string; restriction: string }>;
  terms: SourceTerms[];
  note: string;
}

export const CC_BY = { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' } as const;

/** SPDX identifiers that allow reuse for any purpose with a credit. */
const OPEN_SPDX = new Set([
  'CC-BY-4.0',
  'CC-BY-3.0',
  'CC0-1.0',
  'PDDL-1.0',
  'ODC-By-1.0',
  'MIT',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
]);

export function isOpen(s: LicensedSource): boolean {
  if (s.usage_restriction) return false;
  if (s.reuse_open === 1 || s.reuse_open === 0) return s.reuse_open === 1;
  if (s.licence_spdx && OPEN_SPDX.has(s.licence_spdx)) return true;
  return /public domain/i.test(s.licence_name ?? '');
}

/** The restriction a restricted source puts on reuse: the register's words, else its licence's name. */
export function restrictionOf(s: LicensedSource): string {
  return s.usage_restriction ?? `only under ${s.licence_name ?? 'terms not stated'}`;
}

export function sourceTerms(s: LicensedSource): SourceTerms {
  const open = isOpen(s);
  const licence = s.licence_name ?? 'not stated';
  const credit = s.credit ? ` with the credit "${s.credit}"` : '';
  return {
    source: s.code,
    licence,
    url: s.licence_url,
    open,
    reuse: open
      ? `May be reused for any purpose under ${licence}${credit}.`
      : `Figures resting on ${s.name} may be reused ${s.usage_restriction ? `for ${s.usage_restriction} purposes only, ` : ''}under ${licence}${s.licence_url ? ` (${s.licence_url})` : ''}${credit}; they are not covered by CC BY 4.0.`,
  };
}

export function composeLicence(sources: readonly LicensedSource[]): ComposedLicence {
  const terms = sources.map(sourceTerms);
  const restricted = sources.filter((s) => !isOpen(s));
  const restrictions = restricted.map((s) => ({ source: s.code, restriction: restrictionOf(s) }));
  if (restricted.length === 0) {
    return {
      ...CC_BY,
      open: true,
      restrictions,
      terms,
      note: sources.length
        ? 'This response may be reused under CC BY 4.0, giving the credit of every source listed in sources and the citation. Every source its figures used is openly licensed.'
        : "This response may be reused under CC BY 4.0 with the citation. It serves no figure, so no source's terms apply.",
    };
  }
  const names = restricted.map((s) => `${s.name} (${s.licence_name ?? 'terms not stated'})`);
  return {
    name: `Not an open licence as a whole: CC BY 4.0 for this service's own work, and the terms of ${names.join('; ')} for the figures that rest on ${restricted.length === 1 ? 'it' : 'them'}`,
    url: CC_BY.url,
    open: false,
    restrictions,
    terms,
    note:
      `The figures here rest on ${restricted.length === 1 ? 'a source' : 'sources'} that ${restricted.length === 1 ? 'is' : 'are'} not openly licensed: ${restricted.map((s) => `${s.name}, ${restrictionOf(s)}`).join('; ')}. ` +
      'Those figures may be quoted and reused only under those terms, with every credit listed in sources and the citation. ' +
      'The register facts and the structure of this response are CC BY 4.0. See terms for what each source allows.',
  };
}

/** One caveat per restricted source: what it means for quoting the figures. */
export function restrictionCaveats(sources: readonly LicensedSource[]): Array<{ code: string; text: string }> {
  return sources
    .filter((s) => !isOpen(s))
    .map((s) => ({
      code: 'usage_restriction',
      text: `These figures use ${s.name} (${s.code}), which is not openly licensed: ${restrictionOf(s)}${s.licence_url ? ` (${s.licence_url})` : ''}. Every figure using it inherits those terms.`,
    }));
}
