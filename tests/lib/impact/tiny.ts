/**
 * A register small enough to compute on paper (the numbers are worked out in engine.test.ts):
 * two materials, ore-x and ore-y, both metal ores, mined in two countries, AAA and BBB;
 * a product `gadget` of 2 kg of ore-x and 0.5 kg of ore-y (loss 20%); `plate` (1 kg of ore-x) and
 * `gadget2`, made of 3 plates. Harm: 10 work deaths a year in AAA (half in mining), 4 in BBB (a
 * quarter in mining), and a conflict in AAA with 20 deaths in 2020 (none in 2021), 10% tied to
 * mining. The scenario window is 2020–2021.
 */
import type { Register } from '../../../lib/impact/types.ts';

export const TINY_PARAMS = {
  channels: ['C1', 'C2', 'C3', 'C4'],
  years: [2020, 2021],
  min_confidence: 'low',
  share_basis: 'central',
  conflicts: 'all',
  arms: false,
  consumer: 'AAA',
};

export function tinyRegister(): Register {
  const source = {
    enabled: true,
    licence_name: 'CC BY 4.0',
    credit: 'Tiny source.',
    usage_restriction: null,
    verified_on: null,
  };
  return {
    data_version: 'tiny-1',
    illustrative: false,
    methodology: { code: 'v1', document_sha256: '0'.repeat(64) },
    sources: [{ code: 'tiny', ...source }],
    sectors: [
      { code: 'MIN-ORE', name: 'Mining of metal ores', kind: 'extraction' },
      { code: 'METAL', name: 'Metals', kind: 'manufacture' },
      { code: 'ARMS', name: 'Arms', kind: 'manufacture' },
    ],
    countries: [
      { iso3: 'AAA', name: 'Aland', mrio_region: 'AAA' },
      { iso3: 'BBB', name: 'Bland', mrio_region: 'ROW' },
    ],
    channels: [
      { code: 'C1', name: 'Conflict', requires_paf: false },
      { code: 'C2', name: 'Work', requires_paf: false },
      { code: 'C3', name: 'Deprivation', requires_paf: true },
      { code: 'C4', name: 'Exposure', requires_paf: true },
    ],
    materials: [
      { slug: 'ore-x', name: 'Ore X', sector: 'MIN-ORE', price_eur_per_kg: 10, price_source: 'tiny' },
      { slug: 'ore-y', name: 'Ore Y', sector: 'MIN-ORE', price_eur_per_kg: 30, price_source: 'tiny' },
    ],
    production: [
      {
        material: 'ore-x',
        year: 2021,
        unit: 't',
        world_total: 400,
        source: 'tiny',
        note: null,
        countries: [
          { iso3: 'AAA', qty: 100, quality: 'reported', source: 'tiny' },
          { iso3: 'BBB', qty: 300, quality: 'reported', source: 'tiny' },
        ],
      },
      {
        material: 'ore-y',
        year: 2021,
        unit: 't',
        world_total: 100,
        source: 'tiny',
        note: null,
        countries: [{ iso3: 'AAA', qty: 50, quality: 'reported', source: 'tiny' }],
      },
    ],
    other_output: [],
    products: [
      {
        slug: 'gadget',
        name: 'Gadget',
        tier: 'finished',
        unit: 'piece',
        unit_mass_g: 2500,
        is_arms: false,
        complete: true,
        bom_confidence: 'high',
        price_eur: 100,
        price_source: 'tiny',
        mrio_region: 'AAA',
        mrio_sector: 'METAL',
      },
      {
        slug: 'plate',
        name: 'Plate',
        tier: 'semi_finished',
        unit: 'piece',
        unit_mass_g: 1000,
        is_arms: false,
        complete: true,
        bom_confidence: 'high',
        price_eur: 10,
        price_source: 'tiny',
        mrio_region: 'AAA',
        mrio_sector: 'METAL',
      },
      {
        slug: 'gadget2',
        name: 'Gadget two',
        tier: 'finished',
        unit: 'piece',
        unit_mass_g: null,
        is_arms: false,
        complete: true,
        bom_confidence: 'high',
        price_eur: 50,
        price_source: 'tiny',
        mrio_region: 'AAA',
        mrio_sector: 'METAL',
      },
    ],
    bom: [
      {
        product: 'gadget',
        line: 1,
        role: 'body',
        component_type: 'material',
        component_key: 'ore-x',
        component_name: 'Ore X',
        qty: 2,
        unit: 'kg',
        loss_factor: 0,
        confidence: 'high',
      },
      {
        product: 'gadget',
        line: 2,
        role: 'trim',
        component_type: 'material',
        component_key: 'ore-y',
        component_name: 'Ore Y',
        qty: 500,
        unit: 'g',
        loss_factor: 0.2,
        confidence: 'high',
      },
      {
        product: 'plate',
        line: 1,
        role: 'plate',
        component_type: 'material',
        component_key: 'ore-x',
        component_name: 'Ore X',
        qty: 1,
        unit: 'kg',
        loss_factor: 0,
        confidence: 'high',
      },
      {
        product: 'gadget2',
        line: 1,
        role: 'plates',
        component_type: 'product',
        component_key: 'plate',
        component_name: 'Plate',
        qty: 3,
        unit: 'piece',
        loss_factor: 0,
        confidence: 'high',
      },
    ],
    conflicts: [{ slug: 'k1', name: 'Aland: Government', resource_linked: true, source: 'tiny' }],
    periods: ['S-MAX', 'S-RES', 'S-ARMS'].map((scenario) => ({
      conflict: 'k1',
      scenario,
      label: '2020–2021',
      year_from: 2020,
      year_to: 2021,
      shares: [
        { sector: 'MIN-ORE', share: 0.1, confidence: 'high' as const, source: 'tiny' },
        ...(scenario === 'S-ARMS' ? [{ sector: 'ARMS', share: 0.2, confidence: 'high' as const, source: 'tiny' }] : []),
      ],
    })),
    ledger: [
      {
        conflict: 'k1',
        iso3: 'AAA',
        year: 2020,
        deaths_best: 20,
        deaths_low: 20,
        deaths_high: 20,
        quality: 'reported',
        source: 'tiny',
      },
    ],
    harm: [2020, 2021].flatMap((year) => [
      { iso3: 'AAA', channel: 'C2', year, deaths: 10, injuries: 100, paf: null, quality: 'reported', source: 'tiny' },
      { iso3: 'BBB', channel: 'C2', year, deaths: 4, injuries: 40, paf: null, quality: 'reported', source: 'tiny' },
    ]),
    harm_shares: [
      { channel: 'C2', iso3: 'AAA', sector: 'MIN-ORE', share: 0.5, confidence: 'high', source: 'tiny' },
      { channel: 'C2', iso3: 'BBB', sector: 'MIN-ORE', share: 0.25, confidence: 'high', source: 'tiny' },
    ],
    mrio: {
      regions: ['AAA', 'ROW'],
      sectors: ['MIN-ORE', 'METAL', 'ARMS'],
      output: { AAA: { 'MIN-ORE': 1, METAL: 10, ARMS: 1 }, ROW: { 'MIN-ORE': 2, METAL: 10, ARMS: 1 } },
      coefficients: [{ from_region: 'AAA', from_sector: 'MIN-ORE', to_region: 'AAA', to_sector: 'METAL', value: 0.5 }],
      sourcing: [{ sector: 'METAL', from_region: 'AAA', to_region: 'AAA', share: 1 }],
    },
    coicop: [
      {
        code: '05',
        level: 'division',
        name: 'Furnishings',
        share_of_spend: 1,
        share_source: 'tiny',
        bridge: [{ sector: 'METAL', share: 0.5 }],
        left_out: [{ industry: 'Taxes on products', why: 'not production' }],
      },
    ],
    scenarios: [
      { code: 'S-MAX', name: 'Max', params: TINY_PARAMS },
      { code: 'S-RES', name: 'Res', params: { ...TINY_PARAMS, channels: ['C1'], conflicts: 'resource_linked' } },
      { code: 'S-ARMS', name: 'Arms', params: { ...TINY_PARAMS, arms: true } },
    ],
    always_sources: ['tiny'],
    spend_sources: [],
  };
}
