/** Shared formatting for the writers. */
export const pct = (x: number) => `${Math.round(x * 100)}%`;

export function rateText(pass: number, n: number, interval: [number, number]): string {
  return `${pct(pass / n)} (${pass}/${n}, ${pct(interval[0])}–${pct(interval[1])})`;
}

export function signedPts(x: number): string {
  return `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} pts`;
}
