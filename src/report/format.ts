/** Shared formatting for the writers. */
export const pct = (x: number) => `${Math.round(x * 100)}%`;

export function rateText(pass: number, n: number, interval: [number, number]): string {
  return `${pct(pass / n)} (${pass}/${n}, ${pct(interval[0])}–${pct(interval[1])})`;
}

export function signedPts(x: number): string {
  return `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} pts`;
}

/** A p-value: three decimals, or two significant digits below 0.001 (under double precision's floor: <1e-300). */
export function fmtP(p: number): string {
  if (p === 0) return '<1e-300';
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}
