/**
 * Counter-based random numbers: draw d of an uncertain input named `key` is a pure function of
 * (seed, key, d). Nothing depends on the order in which inputs are sampled, so
 *  - draws are paired: draw d of the cobalt price is the same number in every product's figure and in
 *    every scenario run with the same seed (what /compare relies on);
 *  - a sample of products recomputed alone gives exactly the rows of the full run (the
 *    reproducibility gate), and the same inputs and seed give a byte-identical run.
 * Math.random is never used. The mixer is MurmurHash3's 32-bit finaliser over FNV-1a of the key.
 */

/** FNV-1a, 32 bits, of a string's UTF-16 code units. */
export function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function fmix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A uniform number in (0, 1), never 0 or 1, with 53 random bits. */
export function uniform(seed: number, keyHash: number, draw: number): number {
  const base = fmix32(keyHash ^ fmix32(seed >>> 0));
  const a = fmix32(base + Math.imul(draw + 1, 0x9e3779b1));
  const b = fmix32(a ^ Math.imul(draw + 1, 0x85ebca77) ^ 0x27d4eb2f);
  return ((a >>> 5) * 67108864 + (b >>> 6) + 0.5) / 9007199254740992;
}

/** Inverse of the standard normal CDF (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile needs 0 < p < 1, got ${p}`);
  const a = [
    -3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1,
    2.506628277459239,
  ];
  const b = [
    -5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1,
  ];
  const c = [
    -7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
    );
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/** N draws of a multiplier with median 1 and geometric standard deviation `gsd` (gsd 1 = certain). */
export function lognormalFactors(seed: number, key: string, draws: number, gsd: number): Float64Array {
  const out = new Float64Array(draws);
  if (gsd <= 1) return out.fill(1);
  const h = hashKey(key);
  const s = Math.log(gsd);
  for (let d = 0; d < draws; d++) out[d] = Math.exp(s * normalQuantile(uniform(seed, h, d)));
  return out;
}

/** N draws uniform on [1 − w, 1 + w]: the band a share is known within. */
export function bandFactors(seed: number, key: string, draws: number, w: number): Float64Array {
  const out = new Float64Array(draws);
  const h = hashKey(key);
  for (let d = 0; d < draws; d++) out[d] = 1 + w * (2 * uniform(seed, h, d) - 1);
  return out;
}
