/**
 * What the bill-of-materials spot checks read (tests/db/impact-bom-*.test.ts): the shipped
 * bom-additions rows with csv-parse, not through the importers, and the published register's lines
 * with the provenance each rests on, so that each check sets a cited row beside the line built from it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { buildRegister, ROOT } from '../../db/impact/load.ts';

type Rec = Record<string, string>;

const rows = parse(readFileSync(join(ROOT, 'data', 'impact', 'bom-additions', 'bom_additions.csv'), 'utf8'), {
  columns: true,
  bom: true,
  trim: true,
}) as Rec[];

/** data row N of bom_additions.csv (1-based), as the lines address it (`add:N`) */
export const additionRow = (n: number): Rec => rows[n - 1]!;
export const additionValue = (n: number): number => Number(additionRow(n).quantity);
/** the row a line's citation names (`bom_additions.csv:N`), and its value */
export const citedRow = (ref: string): Rec => additionRow(Number(ref.split(':')[1]));
export const citedValue = (ref: string): number => Number(citedRow(ref).quantity);

const catalogue = (
  JSON.parse(readFileSync(join(ROOT, 'fixtures', 'impact', 'products.json'), 'utf8')) as {
    products: Array<{ slug: string; unit_mass_g: number; archetype: string }>;
  }
).products;
/** a product as the catalogue (fixtures/impact/products.json) defines it: its unit mass and archetype */
export const catalogueProduct = (slug: string) => catalogue.find((p) => p.slug === slug)!;

const tables = buildRegister('published').tables;
const provenance = new Map(tables.impact_provenance!.map((p) => [p.id as number, p]));

export interface BomLine extends Record<string, unknown> {
  qty: number;
  unit: string;
  basis: string;
  source: string;
  method: string;
  /** each citation as `<use> <file>:<row>` */
  cited: string[];
}

/** The published register's lines of `product`, or every product's. */
export const bomLines = (product?: string) =>
  tables.impact_bom_lines!.filter((x) => product === undefined || x.product === product);

/** The published register's line of `product` in `role`, with its provenance's basis, source and method. */
export function bomLine(product: string, role: string): BomLine {
  const l = bomLines(product).find((x) => x.role === role);
  assert.ok(l, `${product} ${role}`);
  const p = provenance.get(l.provenance as number)!;
  const cited = ((l.citations as Rec[] | null) ?? []).map(
    (c) => `${c.use} ${String(c.file).split('/').pop()}:${c.row}`,
  );
  return {
    ...l,
    qty: Number(l.qty),
    unit: String(l.unit),
    basis: String(p.basis),
    source: String(p.source),
    method: String(p.method),
    cited,
  };
}
