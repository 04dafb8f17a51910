/**
 * Axes for the explorer's charts: a value's position along the axis (0 to 1) and the ticks to label.
 * Linear axes start at 0 (bars must start at zero to be read as amounts); logarithmic axes run over
 * whole decades, because the figures of one chart can differ by orders of magnitude (a product's
 * scenarios go from 1e-10 to 1e-7 deaths per unit) and a linear axis would squash all but the largest.
 * Pure: numbers in, numbers out.
 */

export interface Scale {
  kind: 'linear' | 'log';
  /** The axis' ends (for a log axis, powers of ten). */
  min: number;
  max: number;
  ticks: number[];
  /** Position of a value between the ends, 0 to 1, clamped; on a log axis 0 and below sit at the left end. */
  at(value: number): number;
}

const clamp = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);

/** A step of 1, 2 or 5 × 10^k giving about `count` intervals up to `max`. */
export function niceStep(max: number, count = 4): number {
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  // Floating-point noise (3 × 0.1 = 0.30000000000000004) would show in tick labels.
  return Number(step.toPrecision(12));
}

/** 0 to a round number at or above the largest value; an all-zero chart gets 0 to 1. */
export function linearScale(values: number[]): Scale {
  const top = Math.max(0, ...values.filter(Number.isFinite));
  if (top === 0) return { kind: 'linear', min: 0, max: 1, ticks: [0, 0.5, 1], at: (v) => clamp(v) };
  const step = niceStep(top);
  const max = Number((Math.ceil(top / step - 1e-9) * step).toPrecision(12));
  const ticks: number[] = [];
  for (let i = 0; i * step <= max + step * 1e-9; i++) ticks.push(Number((i * step).toPrecision(12)));
  return { kind: 'linear', min: 0, max, ticks, at: (v) => clamp(v / max) };
}

/**
 * Whole decades around the positive values (and `include`, e.g. 1 for a ratio); at most about eight
 * labelled ticks, every second or third decade when the range is wider.
 */
export function logScale(values: number[], include: number[] = []): Scale {
  const positive = [...values, ...include].filter((v) => Number.isFinite(v) && v > 0);
  if (positive.length === 0) return logScale([1]);
  let lo = Math.floor(Math.log10(Math.min(...positive)) + 1e-9);
  let hi = Math.ceil(Math.log10(Math.max(...positive)) - 1e-9);
  if (hi <= lo) hi = lo + 1;
  const every = Math.ceil((hi - lo) / 8);
  lo -= (hi - lo) % every === 0 ? 0 : every - ((hi - lo) % every);
  const ticks: number[] = [];
  for (let k = lo; k <= hi; k += every) ticks.push(Number((10 ** k).toPrecision(12)));
  return {
    kind: 'log',
    min: 10 ** lo,
    max: 10 ** hi,
    ticks,
    at: (v) => (v <= 0 ? 0 : clamp((Math.log10(v) - lo) / (hi - lo))),
  };
}

/**
 * Log when the positive values span more than a factor of 20 (or a value is to be compared with a
 * reference such as a ratio of 1), else linear from 0.
 */
export function autoScale(values: number[], options: { include?: number[]; forceLog?: boolean } = {}): Scale {
  const positive = values.filter((v) => Number.isFinite(v) && v > 0);
  const spread = positive.length ? Math.max(...positive) / Math.min(...positive) : 1;
  return options.forceLog || spread > 20
    ? logScale(values, options.include)
    : linearScale([...values, ...(options.include ?? [])]);
}
