/**
 * The work one reply may cost the parser, shared by every finder. A legitimate reply needs a handful of candidate
 * regions and repairs; a runaway or garbage reply of 1 MB holds thousands, each costing a parse, so without a shared
 * bound the finders together could spend seconds on it. `parseResponse` opens a budget per reply (parsing is
 * synchronous, so no other reply interleaves) and lifts it afterwards; outside it nothing is bounded.
 */
interface Budget {
  /** Candidate regions (tags, fences, brackets) the finders may still try to parse. */
  candidates: number;
  /** Characters jsonrepair may still be given (a failed repair throws and scans the whole candidate). */
  repairChars: number;
}

/** Candidate regions per reply, across every finder. */
export const MAX_CANDIDATES_PER_REPLY = 3_000;

const UNBOUNDED: Budget = { candidates: Number.POSITIVE_INFINITY, repairChars: Number.POSITIVE_INFINITY };
let budget: Budget = UNBOUNDED;

/** Runs `parse` under the budget of one reply of `length` characters. */
export function withReplyBudget<T>(length: number, parse: () => T): T {
  budget = { candidates: MAX_CANDIDATES_PER_REPLY, repairChars: 2 * length + 100_000 };
  try {
    return parse();
  } finally {
    budget = UNBOUNDED;
  }
}

/** Takes one candidate region; false when the reply's budget is spent. */
export function takeCandidate(): boolean {
  if (budget.candidates <= 0) return false;
  budget.candidates--;
  return true;
}

/** Takes `chars` of repair; false (nothing taken) when they do not fit in what is left. */
export function takeRepairChars(chars: number): boolean {
  if (chars > budget.repairChars) return false;
  budget.repairChars -= chars;
  return true;
}
