/** How a race's sample grows: its first size, and the factor of each round after (at least one case more). */
export interface SampleGrowth {
  firstRound: number;
  growth: number;
}

/** The sample size after `size` cases (0: the first round's), never past `caseCount`. */
export function nextSampleSize(size: number, caseCount: number, g: SampleGrowth): number {
  return size === 0
    ? Math.min(caseCount, Math.max(1, g.firstRound))
    : Math.min(caseCount, Math.max(size + 1, Math.ceil(size * g.growth)));
}

/** Every sample size a race goes through, up to all `caseCount` cases. */
export function sampleSizes(caseCount: number, g: SampleGrowth): number[] {
  const out: number[] = [];
  for (let size = 0; size < caseCount; ) {
    size = nextSampleSize(size, caseCount, g);
    out.push(size);
  }
  return out;
}
