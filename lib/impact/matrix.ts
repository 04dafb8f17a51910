/**
 * Dense square matrices as row-major Float64Arrays, just what the input-output route needs: the
 * Leontief inverse L = (I − A)⁻¹ by Gauss–Jordan elimination with partial pivoting, and products.
 * The table has 72 rows, so dense is simpler and fast enough (a sparse LU pays off in the thousands).
 */

export interface Matrix {
  n: number;
  data: Float64Array;
}

export function identity(n: number): Matrix {
  const data = new Float64Array(n * n);
  for (let i = 0; i < n; i++) data[i * n + i] = 1;
  return { n, data };
}

export function multiply(a: Matrix, b: Matrix): Matrix {
  const n = a.n;
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < n; k++) {
      const aik = a.data[i * n + k]!;
      if (aik === 0) continue;
      for (let j = 0; j < n; j++) out[i * n + j]! += aik * b.data[k * n + j]!;
    }
  }
  return { n, data: out };
}

export function subtract(a: Matrix, b: Matrix): Matrix {
  const out = new Float64Array(a.data.length);
  for (let i = 0; i < out.length; i++) out[i] = a.data[i]! - b.data[i]!;
  return { n: a.n, data: out };
}

/** (I − A)⁻¹. Throws when I − A is singular (a table whose sectors need more than they make). */
export function leontiefInverse(a: Matrix): Matrix {
  const n = a.n;
  const m = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) m[i] = -a.data[i]!;
  for (let i = 0; i < n; i++) m[i * n + i]! += 1;
  const inv = identity(n).data;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r * n + col]!) > Math.abs(m[pivot * n + col]!)) pivot = r;
    if (Math.abs(m[pivot * n + col]!) < 1e-12)
      throw new Error('I − A is singular: the input-output table is not productive');
    if (pivot !== col) {
      swapRows(m, n, pivot, col);
      swapRows(inv, n, pivot, col);
    }
    const p = m[col * n + col]!;
    for (let j = 0; j < n; j++) {
      m[col * n + j]! /= p;
      inv[col * n + j]! /= p;
    }
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r * n + col]!;
      if (f === 0) continue;
      for (let j = 0; j < n; j++) {
        m[r * n + j]! -= f * m[col * n + j]!;
        inv[r * n + j]! -= f * inv[col * n + j]!;
      }
    }
  }
  return { n, data: inv };
}

function swapRows(m: Float64Array, n: number, a: number, b: number) {
  for (let j = 0; j < n; j++) {
    const t = m[a * n + j]!;
    m[a * n + j] = m[b * n + j]!;
    m[b * n + j] = t;
  }
}
