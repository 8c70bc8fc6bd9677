/**
 * A small exact solver for the calibration linear program
 *
 *   minimise  c.x   subject to  a_k.x >= b_k (every k),  lower <= x <= upper,  with c >= 0,
 *
 * solved through its dual with a dense tableau simplex: the dual has one row per free variable
 * (a few dozen) and one column per constraint (thousands), and y = 0 is a feasible start because
 * c >= 0. The primal solution is read off the reduced costs of the dual's slack columns.
 */
export interface CoverConstraint {
  readonly a: ArrayLike<number>;
  readonly b: number;
}

export interface CoverProgram {
  readonly c: ArrayLike<number>;
  readonly constraints: readonly CoverConstraint[];
  readonly lower: ArrayLike<number>;
  readonly upper: ArrayLike<number>;
}

const EPS = 1e-9;

export function solveCover(program: CoverProgram): Float64Array {
  const n = program.c.length;
  const lower = Float64Array.from(program.lower);
  const free = [...Array(n).keys()].filter((j) => (program.upper[j] ?? 0) - (lower[j] ?? 0) > EPS);
  // Columns of the dual: constraints shifted by the lower bounds, then the finite upper bounds.
  const columns: { g: Float64Array; h: number }[] = [];
  for (const { a, b } of program.constraints) {
    let shifted = b;
    for (let j = 0; j < n; j++) shifted -= (a[j] ?? 0) * (lower[j] ?? 0);
    let nonNegative = true;
    for (let j = 0; j < n; j++) if ((a[j] ?? 0) < 0) nonNegative = false;
    if (shifted <= EPS && nonNegative) continue; // met by every x >= lower
    const scale = 1 / Math.max(1, Math.abs(shifted));
    columns.push({ g: Float64Array.from(free, (j) => (a[j] ?? 0) * scale), h: shifted * scale });
  }
  free.forEach((j, r) => {
    const width = (program.upper[j] ?? Infinity) - (lower[j] ?? 0);
    if (Number.isFinite(width)) columns.push({ g: Float64Array.from(free, (_, i) => (i === r ? -1 : 0)), h: -width });
  });
  const z = dualSimplex(free.map((j) => program.c[j] ?? 0), columns);
  const x = Float64Array.from(lower);
  free.forEach((j, r) => (x[j] = (lower[j] ?? 0) + (z[r] ?? 0)));
  return x;
}

/** max h.y s.t. G^T y <= c, y >= 0; returns the primal z (the optimal duals of the rows). */
function dualSimplex(c: readonly number[], columns: readonly { g: Float64Array; h: number }[]): Float64Array {
  const rows = c.length;
  const m = columns.length;
  const width = m + rows + 1; // y columns, slack columns, right-hand side
  const t = Array.from({ length: rows }, (_, r) => {
    const row = new Float64Array(width);
    columns.forEach((col, k) => (row[k] = col.g[r] ?? 0));
    row[m + r] = 1;
    row[width - 1] = c[r] ?? 0;
    return row;
  });
  const obj = new Float64Array(width);
  columns.forEach((col, k) => (obj[k] = -col.h));
  const basis = Array.from({ length: rows }, (_, r) => m + r);
  let degenerate = 0;
  for (let iteration = 0; iteration < 100_000; iteration++) {
    const bland = degenerate > 50;
    let enter = -1;
    for (let k = 0; k < width - 1; k++) {
      if ((obj[k] ?? 0) < -EPS && (enter < 0 || (!bland && (obj[k] ?? 0) < (obj[enter] ?? 0)))) {
        enter = k;
        if (bland) break;
      }
    }
    if (enter < 0) return Float64Array.from({ length: rows }, (_, r) => obj[m + r] ?? 0);
    let leave = -1;
    let best = Infinity;
    for (let r = 0; r < rows; r++) {
      const coef = t[r]?.[enter] ?? 0;
      if (coef <= EPS) continue;
      const ratio = (t[r]?.[width - 1] ?? 0) / coef;
      if (ratio < best - EPS || (Math.abs(ratio - best) <= EPS && (basis[r] ?? 0) < (basis[leave] ?? Infinity))) {
        best = ratio;
        leave = r;
      }
    }
    if (leave < 0) throw new Error("calibration LP is infeasible: some text cannot be covered within the coefficient bounds");
    degenerate = best <= EPS ? degenerate + 1 : 0;
    pivot(t, obj, leave, enter);
    basis[leave] = enter;
  }
  throw new Error("calibration LP did not converge");
}

function pivot(t: Float64Array[], obj: Float64Array, leave: number, enter: number): void {
  const row = t[leave];
  if (row === undefined) throw new Error("pivot row missing");
  const p = row[enter] ?? 1;
  for (let k = 0; k < row.length; k++) row[k] = (row[k] ?? 0) / p;
  const eliminate = (target: Float64Array) => {
    const f = target[enter] ?? 0;
    if (Math.abs(f) <= 1e-15) return;
    for (let k = 0; k < target.length; k++) target[k] = (target[k] ?? 0) - f * (row[k] ?? 0);
  };
  for (const other of t) if (other !== row) eliminate(other);
  eliminate(obj);
}
