/**
 * The register's lists for discovery (issue 14): every material, conflict, product category, and the
 * countries the register holds data for (harm counted or material production), each list in one
 * stable order. Prepared once.
 */
import type { Db } from '../../connection.ts';
import { statementsFor } from '../../statements.ts';

export interface MaterialListRow {
  slug: string;
  name: string;
  category: string;
  unit: string;
  criticality_level: string;
  conflict_mineral: number;
}
export interface ConflictListRow {
  slug: string;
  name: string;
  ucdp_conflict_id: number | null;
  type: string;
  region: string;
  year_from: number | null;
  year_to: number | null;
}
export interface CountryListRow {
  iso3: string;
  name: string;
  region: string;
  income_group: string | null;
  harm_counted: number;
  production: number;
  deaths_counted: number;
}
export interface CategoryListRow {
  code: string;
  name: string;
  products: number;
}

const statements = statementsFor((db) => ({
  materials: db.prepare(
    'SELECT slug, name, category, unit, criticality_level, conflict_mineral FROM impact_materials ORDER BY slug',
  ),
  conflicts: db.prepare(
    'SELECT slug, name, ucdp_conflict_id, type, region, year_from, year_to FROM impact_conflicts ORDER BY slug',
  ),
  countries: db.prepare(`SELECT c.iso3, c.name, c.region, c.income_group,
      EXISTS (SELECT 1 FROM impact_harm_counted h WHERE h.iso3 = c.iso3) AS harm_counted,
      EXISTS (SELECT 1 FROM impact_material_production p WHERE p.iso3 = c.iso3) AS production,
      coalesce((SELECT sum(h.deaths) FROM impact_harm_counted h WHERE h.iso3 = c.iso3), 0) AS deaths_counted
    FROM impact_countries c
    WHERE EXISTS (SELECT 1 FROM impact_harm_counted h WHERE h.iso3 = c.iso3) OR EXISTS (SELECT 1 FROM impact_material_production p WHERE p.iso3 = c.iso3)
    ORDER BY c.iso3`),
  categories: db.prepare(`SELECT c.code, c.name, count(p.slug) AS products FROM impact_product_categories c
    LEFT JOIN impact_products p ON p.category = c.code GROUP BY c.code, c.name ORDER BY c.code`),
}));

export function listReads(db: Db) {
  const { materials, conflicts, countries, categories } = statements(db);
  return {
    materials: () => materials.all() as MaterialListRow[],
    conflicts: () => conflicts.all() as ConflictListRow[],
    countries: () => countries.all() as CountryListRow[],
    categories: () => categories.all() as CategoryListRow[],
  };
}

export type ListReads = ReturnType<typeof listReads>;
