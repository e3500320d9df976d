/**
 * Maximum bipartite matching (Kuhn's augmenting paths): which model call satisfies which expected call.
 * Order-insensitive and optimal, unlike BFCL's greedy first-fit, which can miss a valid assignment when
 * one call fits two expectations. Sizes are tiny (calls per case), so the O(V·E) algorithm is plenty.
 */
export function maxMatching(fits: boolean[][], right: number): Array<number | undefined> {
  const rightOwner: Array<number | undefined> = new Array(right).fill(undefined);
  for (let l = 0; l < fits.length; l++) tryAssign(fits, right, rightOwner, l, new Array(right).fill(false));
  return rightOwner;
}

/** One augmenting-path search from left node `l` (a module function: a closure per call costs more than the search). */
function tryAssign(
  fits: boolean[][],
  right: number,
  rightOwner: Array<number | undefined>,
  l: number,
  seen: boolean[],
): boolean {
  for (let r = 0; r < right; r++) {
    if (!fits[l]?.[r] || seen[r]) continue;
    seen[r] = true;
    const owner = rightOwner[r];
    if (owner === undefined || tryAssign(fits, right, rightOwner, owner, seen)) {
      rightOwner[r] = l;
      return true;
    }
  }
  return false;
}
