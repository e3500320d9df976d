/**
 * Maximum bipartite matching (Kuhn's augmenting paths): which model call satisfies which expected call.
 * Order-insensitive and optimal, unlike BFCL's greedy first-fit, which can miss a valid assignment when
 * one call fits two expectations. Sizes are tiny (calls per case), so the O(V·E) algorithm is plenty.
 */
export function maxMatching(fits: boolean[][], right: number): Array<number | undefined> {
  const rightOwner: Array<number | undefined> = new Array(right).fill(undefined);
  const tryAssign = (l: number, seen: boolean[]): boolean => {
    for (let r = 0; r < right; r++) {
      if (!fits[l]?.[r] || seen[r]) continue;
      seen[r] = true;
      const owner = rightOwner[r];
      if (owner === undefined || tryAssign(owner, seen)) {
        rightOwner[r] = l;
        return true;
      }
    }
    return false;
  };
  for (let l = 0; l < fits.length; l++) tryAssign(l, new Array(right).fill(false));
  return rightOwner;
}
