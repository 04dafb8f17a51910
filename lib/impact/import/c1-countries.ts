/**
 * Each country's organised violence per year, in two parts: battle deaths of state-based conflicts
 * and the rest (non-state conflict, one-sided violence). From the UCDP by-country totals less the
 * battle deaths (ucdp-owid.ts), or, for the countries and years an operator's GED file covers, from
 * its events. A country with no death in any year is left out; one with deaths keeps every year, its
 * zeros included (UCDP counted none then). Pure.
 */
import type { CountryYear } from './ucdp-owid.ts';
import type { GedCountryYear } from './ucdp-ged.ts';

export interface CountryYearC1 {
  iso3: string;
  year: number;
  battle: number;
  other: number;
  fromGed: boolean;
}

export function combineCountries(owid: readonly CountryYear[], ged: readonly GedCountryYear[]): CountryYearC1[] {
  const out = new Map<string, CountryYearC1>();
  for (const r of owid)
    out.set(`${r.iso3}|${r.year}`, { iso3: r.iso3, year: r.year, battle: r.battle, other: r.other, fromGed: false });
  for (const r of ged)
    out.set(`${r.iso3}|${r.year}`, { iso3: r.iso3, year: r.year, battle: r.battle, other: r.other, fromGed: true });
  const any = new Set([...out.values()].filter((r) => r.battle + r.other > 0).map((r) => r.iso3));
  return [...out.values()]
    .filter((r) => any.has(r.iso3))
    .sort((a, b) => a.iso3.localeCompare(b.iso3) || a.year - b.year);
}
