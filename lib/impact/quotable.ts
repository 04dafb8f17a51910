/**
 * Quotable units (methodology v2 §10): a per-unit figure like 2.0e-8 deaths per phone is hard to say;
 * the same figure per a round number of units is not: "20–59 deaths per billion phones". The rule:
 *  - the reference value is the interval's low end (its high end when the low is 0);
 *  - the count of units is the smallest power of 1,000 (1, thousand, million, billion, trillion,
 *    quadrillion) that brings the reference to at least 1;
 *  - the figure is scaled by it and written at two significant figures, "central (low–high)", or
 *    "low–high" when INDICATIVE (no central value); kilograms are counted in tonnes ("per thousand
 *    tonnes"), euros in words ("per million EUR");
 *  - a figure resting mostly on inputs that were not measured says so at the end.
 * Pure.
 */
import { formatSig } from './figure.ts';

const WORDS = ['', 'thousand', 'million', 'billion', 'trillion', 'quadrillion'];
const SYMBOLS = new Set(['kg', 'g', 'kWh', 'MW', 't', 'EUR']);

export function pluralOf(phrase: string): string {
  const [head, ...rest] = phrase.split(' of ');
  const words = head!.split(' ');
  const last = words[words.length - 1]!;
  if (!SYMBOLS.has(last)) {
    words[words.length - 1] = /(s|x|ch|sh)$/.test(last)
      ? `${last}es`
      : /[^aeiou]y$/.test(last)
        ? `${last.slice(0, -1)}ies`
        : `${last}s`;
  }
  return [words.join(' '), ...rest].join(' of ');
}

/** "per <count> <units>" for 1000^k units of the denominator (k ≥ 1). */
function perMany(denominator: string, k: number): string {
  const kg = /^kg\b(.*)$/.exec(denominator);
  if (kg) return `${k === 1 ? 'tonne' : `${WORDS[k - 1]} tonnes`}${kg[1]}`;
  const eur = /^([\d,.]+) EUR\b(.*)$/.exec(denominator);
  if (eur) {
    const amount = Number(eur[1]!.replace(/,/g, '')) * 1000 ** k;
    const power = Math.floor(Math.log10(amount) / 3);
    const words =
      power > 0 && power < WORDS.length
        ? `${formatSig(amount / 1000 ** power, 3).replace(/\.?0+$/, '')} ${WORDS[power]}`
        : String(amount);
    return `${words} EUR${eur[2]}`;
  }
  return `${WORDS[k]} ${pluralOf(denominator)}`;
}

export function quotableFigure(
  f: { low: number; high: number; central: number | null },
  unit: string,
  mostlyNotMeasured = false,
): string {
  const at = unit.indexOf(' per ');
  const [what, denominator] = at < 0 ? [unit, null] : [unit.slice(0, at), unit.slice(at + 5)];
  const ref = f.low > 0 ? f.low : f.high;
  let k = 0;
  if (denominator !== null && denominator !== 'year' && ref > 0)
    while (ref * 1000 ** k < 1 && k < WORDS.length - 1) k++;
  const scale = 1000 ** k;
  const range = `${formatSig(f.low * scale)}–${formatSig(f.high * scale)}`;
  const value = f.central === null ? range : `${formatSig(f.central * scale)} (${range})`;
  const per = denominator === null ? '' : ` per ${k === 0 ? denominator : perMany(denominator, k)}`;
  const note = mostlyNotMeasured ? '; rests mostly on assumed or illustrative inputs' : '';
  return f.high === 0 ? `none attributed (0 ${what}${per})` : `${value} ${what}${per}${note}`;
}
