/**
 * What each product's headline rests on, by its bill of materials (issue 33), read as a journalist
 * reads it: GET /product/{slug}/contributions?type=basis_bom on the default register and run (S-MAX).
 * The share resting on published or derived bills of materials is the served shares of those two keys;
 * where a part is INDICATIVE the API serves no share (rule 6) and the run's stored share of that key
 * (its mean over the headline's mean) stands in, after checking the served key is the stored one.
 *
 * Targets: every product whose composition a standard, a published conversion or its own definition
 * fixes rests wholly (100 %) on published or derived lines; the 41 products issues 33 to 33l brought to
 * 80 % stay there (the issue asks 40 of 48), and the seven below are the ones whose lines still
 * illustrative docs/methodology/v3.md §5.4 lists with the reason.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startImpactServer, type ImpactServer } from './harness.ts';

let server: ImpactServer;
const measured = new Map<string, number>();

before(async () => {
  server = await startImpactServer({ inProcess: true });
  const run = server.app.db
    .prepare("SELECT run_id FROM impact_current_runs WHERE scenario = 'S-MAX'")
    .pluck()
    .get() as number;
  const stored = server.app.db
    .prepare(
      "SELECT share FROM impact_contributions WHERE run_id = ? AND product = ? AND metric = 'deaths' AND route = 'material' AND dimension = 'basis_bom' AND key = ?",
    )
    .pluck();
  const slugs = server.app.db.prepare('SELECT slug FROM impact_products ORDER BY slug').pluck().all() as string[];
  for (const slug of slugs) {
    const res = await server.api(`/product/${slug}/contributions?type=basis_bom`);
    assert.equal(res.status, 200, `${slug}: ${res.text}`);
    assert.equal(res.json.scenario, 'S-MAX');
    const parts = res.json.data.results.breakdowns.basis_bom as Array<{ key: string; share: number | null }>;
    let share = 0;
    for (const p of parts) {
      if (p.key !== 'published' && p.key !== 'derived') continue;
      const s = p.share ?? (stored.get(run, slug, p.key) as number | undefined);
      assert.ok(s !== undefined, `${slug} ${p.key}: the run stores the part it serves`);
      share += s;
    }
    measured.set(slug, share);
  }
});
after(() => server.cleanup());

/** Products whose bill of materials a standard designation, a published ratio or their definition fixes. */
const FIXED = [
  'aluminium-ingot', // bauxite per kg of aluminium (producers' ranges)
  'steel', // worldsteel BF-BOF ratio, EN 10025-2 S235JR
  'stainless-steel', // 304
  'copper-wire', // Cu-ETP CW004A
  'solder', // SAC305
  'gold-alloy-18k', // fineness 750
  'gold-ring', // 18 carat, the wedding-ring range
  'gold-necklace', // 18 carat, a jewellery guide's chain weights
  'tungsten-carbide', // WC-Co masonry grades
  'brass', // C26000
  'ndfeb-magnet',
  'battery-cell-nmc', // BatPaC NMC 622
  'rubber-compound', // BTMA
  'car-tyre',
  // issue 33c: FAO's extraction rates from what the product's definition fixes, or the definition itself
  'ground-coffee', // 250 g roasted ÷ the EU's green-to-roasted rates
  'sugar', // 1 kg ÷ raw cane sugar ÷ refined sugar
  'tofu', // 400 g ÷ Korea's soya-curd rate
  'cotton-yarn', // a kilogram of cotton yarn is a kilogram of lint
  't-shirt', // 180 g of yarn
  // issue 33d: NREL PV_ICE's silicon and silver per m² × the M10 format's 182 mm × 182 mm
  'solar-cell',
];

test('products a standard, a published conversion or their definition fixes rest wholly on published bills of materials', () => {
  for (const slug of FIXED) {
    const share = measured.get(slug);
    assert.ok(share !== undefined, slug);
    assert.ok(share > 1 - 1e-9, `${slug}: ${(share * 100).toFixed(2)} % published or derived`);
  }
});

test('no product rests less on published bills of materials than measured (41 of 48 at 80 %)', () => {
  assert.equal(measured.size, 48);
  const at80 = [...measured].filter(([, s]) => s >= 0.8).map(([k]) => k);
  assert.ok(at80.length >= 41, `${at80.length} products at 80 % or more: ${at80.join(', ')}`);
  // issue 33d: the bicycle and the jeans from Ecobalyse's components and default garment
  for (const slug of [
    'smartphone',
    'electric-car',
    'petrol-car',
    'wind-turbine-mw',
    'pcb-assembly',
    'bicycle',
    'jeans',
    // published-2026.4: the cocoa's share rose above 80 % when Colombia's other crops were derived
    'chocolate-bar',
    'chocolate-mass',
    // issue 33e: the e-bike's hub-motor magnets from a magnet maker's set and sintered NdFeB's density
    'e-bike',
    // issue 33e: the laptop's and the tablet's boards from Apple's published material use (a MacBook Pro, the first iPad)
    'laptop',
    'tablet',
    // issue 33i: the panel's solder as its ribbon coat's lead and tin (Fraunhofer ISE, Sn63Pb37); the military
    // drone's battery (a 7-inch FPV pack) and boards (a maker's FC/ESC stack)
    'solar-panel',
    'military-drone',
    // issue 33h: the tantalum capacitor's anode, a recycling study's tantalum share × the chip's mass
    'tantalum-capacitor',
    // issue 33g: the biscuits' lines from McVitie's Milk Chocolate Digestives' label and the chocolate directive
    'biscuits',
    // issue 33f: the appliances' boards, steel, copper and aluminium from CECED/UNU's shares, Haier's BCD-181 and OpenLearn
    'refrigerator',
    'washing-machine',
    // issue 33j: the cartridge's case (issue 33h, a weighed .223 Remington case) and its bullet's lead and jacket
    // (the National Research Council's 55-grain 5.56 mm bullet and its lead); the box is 1,000 of them
    'cartridge-556',
    'ammunition-box',
    // issue 33l: the shell's band from the EDA's copper per NATO 155 mm shell (restated); its body from the M104's
    // weight less its filling
    'artillery-shell',
  ])
    assert.ok(measured.get(slug)! >= 0.8, `${slug}: ${(measured.get(slug)! * 100).toFixed(1)} %`);
  // issue 33i: the earbuds' batteries from the first AirPods' teardown; their boards and magnets stay illustrative
  assert.ok(
    measured.get('wireless-earbuds')! >= 0.3,
    `wireless-earbuds: ${(measured.get('wireless-earbuds')! * 100).toFixed(1)} %`,
  );
});

test("the issue's target: 40 of 48 products at 80 % or more; the seven below are the ones §5.4 explains", () => {
  const below = [...measured].filter(([, s]) => s < 0.8).map(([k]) => k);
  assert.ok(48 - below.length >= 40, `${48 - below.length} of 48`);
  // Each rests on a line no source was found for (docs/methodology/v3.md §5.4 gives the reason and where
  // issues 33–33l looked): the drone's boards and magnets, the power bank's board, the earbuds' boards, the
  // margarine's oils, the shoes' outsole, the rifle's steel parts, the drill bits' tips.
  assert.deepEqual(below.sort(), [
    'assault-rifle',
    'consumer-drone',
    'drill-bit-set',
    'margarine',
    'power-bank',
    'running-shoes',
    'wireless-earbuds',
  ]);
});
