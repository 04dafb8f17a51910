/**
 * What the published register's bills of materials rest on (issue 33). Spot values are read from the
 * shipped files here with csv-parse directly, not through the importers: an 18-carat gold's fineness,
 * 304 stainless steel's nickel and chromium, SAC305's tin, BatPaC's cobalt per kWh for NMC 811 and the
 * NMC 622 figures the register's cell takes. Then every line of every product: it names a standard
 * designation or a page or table, or the product's own definition, or it is illustrative and
 * docs/methodology/v3.md §5.4 lists it with its reason.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { buildRegister, ROOT } from '../../db/impact/load.ts';

type Rec = Record<string, string>;
interface BomRow {
  product: string;
  line: number;
  role: string;
  component_type: string;
  component_key: string | null;
  qty: number;
  qty_low: number | null;
  qty_high: number | null;
  unit: string;
  source_text: string;
  provenance: number;
  citations: Array<Record<string, string | number>> | null;
}
const csv = (path: string): Rec[] =>
  parse(readFileSync(join(ROOT, 'data', 'impact', path), 'utf8'), { columns: true, bom: true, trim: true }) as Rec[];

const built = buildRegister('published');
const t = built.tables;
const provenance = new Map(t.impact_provenance!.map((p) => [p.id as number, p]));
const lines = t.impact_bom_lines! as unknown as BomRow[];
const line = (product: string, role: string) => {
  const l = lines.find((x) => x.product === product && x.role === role);
  assert.ok(l, `${product}: a line "${role}"`);
  return {
    ...l,
    basis: provenance.get(l.provenance as number)!.basis,
    source: provenance.get(l.provenance as number)!.source,
  };
};
const citations = (l: BomRow) => l.citations ?? [];
const compositions = csv('standard-compositions/compositions.csv');
const composition = (designation: RegExp, element: string) => {
  const r = compositions.find((x) => designation.test(x.designation!) && x.element_or_input === element);
  assert.ok(r, `${designation} ${element} in compositions.csv`);
  return r;
};
const n = (s: string | undefined) => (s ? Number(s) : null);

test('18-carat gold: 750 fineness from the hallmarking row; copper and silver from the yellow-gold recipe', () => {
  const au = composition(/^18 carat \/ fineness 750$/, 'Au');
  assert.equal(n(au.nominal), 0.75);
  const gold = line('gold-alloy-18k', 'gold');
  assert.equal(gold.qty, 0.75);
  assert.equal(gold.unit, 'kg');
  assert.equal(gold.basis, 'published');
  assert.equal(gold.source, 'standard-compositions');
  assert.match(String(citations(gold)[0]!.source), /18 carat \/ fineness 750/);
  const cu = composition(/^18 carat yellow gold/, 'Cu');
  const ag = composition(/^18 carat yellow gold/, 'Ag');
  assert.equal(line('gold-alloy-18k', 'copper').qty, n(cu.nominal));
  assert.equal(line('gold-alloy-18k', 'silver').qty, n(ag.nominal));
  assert.equal(line('gold-alloy-18k', 'silver').component_key, 'silver', 'silver is modelled, not dropped');
  // The ring's mass is the wedding-ring range the jewellers give (3–10 g), not an authored 4 g.
  const ring = line('gold-ring', 'alloy');
  assert.deepEqual([ring.qty_low, ring.qty_high], [3, 10]);
  assert.ok(Math.abs((ring.qty as number) - Math.sqrt(30)) < 1e-12, 'the geometric mean of 3–10 g');
});

test('304 stainless steel: nickel and chromium within the grade limits, the range feeding the draws', () => {
  const ni = composition(/^304 /, 'Ni');
  const cr = composition(/^304 /, 'Cr');
  assert.deepEqual([n(ni.mass_fraction_min), n(ni.mass_fraction_max)], [0.08, 0.105]);
  assert.deepEqual([n(cr.mass_fraction_min), n(cr.mass_fraction_max)], [0.18, 0.2]);
  const nickel = line('stainless-steel', 'nickel');
  assert.deepEqual([nickel.qty_low, nickel.qty_high], [0.08, 0.105]);
  assert.ok(Math.abs((nickel.qty as number) - Math.sqrt(0.08 * 0.105)) < 1e-12);
  assert.equal(nickel.basis, 'published');
  // Chromium reaches the register as marketable chromite ore: derived, the formula stated.
  const chromite = line('stainless-steel', 'chromium as chromite');
  assert.equal(chromite.basis, 'derived');
  const perCr = 1 / (0.6842 * 0.43);
  assert.ok(Math.abs((chromite.qty_low as number) - 0.18 * 3.399) < 1e-9);
  assert.ok(Math.abs((chromite.qty_high as number) - 0.2 * 3.399) < 1e-9);
  assert.ok(Math.abs(3.399 - perCr) < 1e-3, 'the stated scale is 1 ÷ (Cr in Cr2O3 × Cr2O3 in the ore)');
  assert.match(String(provenance.get(chromite.provenance as number)!.method), /Cr2O3/);
});

test('SAC305: tin, silver and copper as the producers give them', () => {
  const sn = composition(/^SAC305/, 'Sn');
  assert.equal(n(sn.nominal), 0.965);
  assert.equal(line('solder', 'tin').qty, 0.965);
  const ag = composition(/^SAC305/, 'Ag');
  const silver = line('solder', 'silver');
  assert.deepEqual(
    [silver.qty, silver.qty_low, silver.qty_high],
    [0.03, n(ag.mass_fraction_min), n(ag.mass_fraction_max)],
  );
  assert.equal(silver.component_type, 'material', 'the silver of solder is modelled (it was an unmodelled part)');
  const copper = line('solder', 'copper');
  assert.deepEqual([copper.qty, copper.qty_low, copper.qty_high], [0.005, 0.003, 0.007]);
});

test('BatPaC: NMC 811 as shipped, and the NMC 622 cell takes its chemistry with the studies’ range', () => {
  const batpac = csv('batpac-mineral-intensity/mineral-intensity.csv');
  const of = (chem: string, mineral: string) =>
    Number(batpac.find((r) => r.chemistry === chem && r.mineral === mineral)!.kg_per_kwh);
  assert.ok(Math.abs(of('NMC 811', 'Cobalt') - 0.0763) < 5e-5, 'NMC 811 cobalt as the SOURCE.md spot check reads it');
  assert.ok(Math.abs(of('NMC 811', 'Nickel') - 0.6078) < 5e-5);
  assert.ok(Math.abs(of('NMC 811', 'Lithium') - 0.0922) < 5e-5);
  const cobalt = line('battery-cell-nmc', 'cathode cobalt');
  assert.equal(cobalt.source, 'batpac');
  assert.equal(cobalt.basis, 'published');
  assert.ok(Math.abs((cobalt.qty as number) - 1000 * of('NMC 622', 'Cobalt')) < 1e-9, 'g per kWh = 1000 × kg per kWh');
  // The range: BatPaC and the IEA and T&E figures per kWh (bom_figures.csv rows 61 and 78).
  const figures = csv('bom-literature/bom_figures.csv');
  const iea = Number(figures[60]!.quantity);
  const te = Number(figures[77]!.quantity);
  assert.deepEqual(
    [cobalt.qty_low, cobalt.qty_high],
    [Math.min(iea, te, cobalt.qty as number), Math.max(iea, te, cobalt.qty as number)],
  );
  // A vehicle's pack: its stated capacity times the cell's intensities.
  const car = line('electric-car', 'battery');
  assert.deepEqual(
    [car.qty, car.unit, car.component_key, car.source],
    [60, 'kWh', 'battery-cell-nmc', 'trio-catalogue'],
  );
});

test('every line names its standard designation, page or table, or the definition; the rest are listed as illustrative', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'methodology', 'v3.md'), 'utf8');
  const illustrative: string[] = [];
  for (const l of lines) {
    const p = provenance.get(l.provenance as number)!;
    const where = `${l.product} line ${l.line} (${l.role})`;
    if (p.basis === 'illustrative') {
      assert.equal(p.source, 'trio-demo', where);
      illustrative.push(`${l.product}|${l.role}`);
      continue;
    }
    assert.ok(['published', 'derived'].includes(p.basis as string), `${where}: ${p.basis}`);
    if (p.source === 'trio-catalogue') {
      assert.match(String(l.source_text), /^The product's definition in the catalogue: .+/, where);
      continue;
    }
    const cited = citations(l).filter((c) => c.use !== 'checks');
    assert.ok(cited.length, `${where}: cites the rows it rests on`);
    for (const c of cited) {
      const named =
        c.file === 'data/impact/standard-compositions/compositions.csv' ? /: \S/.test(String(c.source)) : true;
      assert.ok(named && String(c.page).trim(), `${where}: row ${c.row} of ${c.file} names a designation or a page`);
    }
    if (p.basis === 'derived') assert.ok(p.method, `${where}: a derived line states its formula`);
  }
  // The methodology's list of lines still illustrative is exactly those lines, each with its reason.
  // §5.4 only: the document goes on to other tables (licences, §13) after it.
  const from = doc.indexOf('Lines still illustrative\n');
  const section = doc.slice(from, doc.indexOf('\n### ', from));
  const listed = [...section.matchAll(/^\| ([a-z0-9-]+) \| ([^|]+?) \| ([^|]+?) \|$/gm)]
    .filter((m) => m[1] !== 'product')
    .map((m) => {
      assert.ok(m[3]!.trim().length > 10, `${m[1]} ${m[2]}: a reason is given`);
      return `${m[1]}|${m[2]}`;
    });
  assert.deepEqual([...listed].sort(), [...illustrative].sort());
});
