/**
 * A crop-to-input line of a bill of materials: the input the product's definition fixes (250 g of
 * roasted coffee in a 250 g pack; 300 g of cocoa solids in a kilogram of 30 % chocolate) divided by FAO's
 * extraction rates, one per step of the commodity tree from the crop the register counts (green coffee
 * → roasted coffee; sugar cane → raw sugar → refined sugar). Each step cites FAO's rows for the countries
 * where the step is made: their median sets the step and their extremes bound it, so the range the draws
 * take runs from every step at its highest rate to every step at its lowest. Methodology v3 §5.1. Pure.
 */
import type { EvidenceRow } from './bom-tables.ts';
import { ImportError } from './csv.ts';

export interface Conversion {
  /** the input's mass the product's definition fixes, in the line's unit */
  of: number;
  /** that definition, in words */
  defined: string;
  /** the steps from the crop to the input, crop first: FAO's rows (`tcf:N`) for each */
  steps: Array<{ step: string; rows: string[] }>;
}

export interface Converted {
  qty: number;
  low: number;
  high: number;
  method: string;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const round = (x: number) => Number(x.toPrecision(4));

/** The line's quantity and range from the definition and the cited rates (`row` cites and returns a row). */
export function convert(c: Conversion, unit: string, row: (ref: string) => EvidenceRow, where: string): Converted {
  if (!(c.of > 0) || c.steps.length === 0) throw new ImportError(where, 'a conversion states its mass and its steps');
  let [qty, low, high] = [c.of, c.of, c.of];
  const words: string[] = [];
  for (const s of c.steps) {
    const rates = s.rows.map((r) => {
      const v = row(r);
      if (v.table !== 'tcf' || v.quantity === null || !(v.quantity > 0))
        throw new ImportError(where, `${r} is not an extraction rate`);
      return v.quantity;
    });
    if (rates.length === 0) throw new ImportError(where, `step "${s.step}" cites no rate`);
    const [mid, lo, hi] = [median(rates), Math.min(...rates), Math.max(...rates)];
    qty /= mid / 100;
    low /= hi / 100;
    high /= lo / 100;
    const spread = lo === hi ? `every row ${mid} %` : `${lo}–${hi} %`;
    words.push(`${mid} % (${s.step}: the median of ${rates.length} countries' rates, ${spread})`);
  }
  return {
    qty,
    low,
    high,
    method: `${c.of} ${unit} (${c.defined}) ÷ ${words.join(' ÷ ')}, FAO Technical Conversion Factors = ${round(qty)} ${unit} (${round(low)}–${round(high)})`,
  };
}
