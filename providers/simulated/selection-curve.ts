/**
 * The simulated catalog persona's chance of choosing the right tool, a made-up curve shaped after published results
 * (docs/presentation.md cites them): selection holds up to a few dozen tools and falls past 30–50 (Anthropic's
 * tool-search documentation), drops steeply with hundreds of tools (LongFuncEval reports 7–85% drops as catalogs
 * grow; RAG-MCP measured 13.6% selection accuracy over a large MCP catalog), and worsens when another visible tool
 * reads like the right one. SIMULATED: these numbers describe no real model.
 *
 * P(right) = 1 / (1 + (n / HALF_AT)^STEEPNESS × (1 + CONFUSION × s))
 *
 * with n the tools the request shows and s (0..1) the word similarity of the most similar other shown tool.
 */
export const SELECTION_CURVE = {
  /** Tools shown at which an unconfusable choice is right half the time. */
  HALF_AT: 150,
  /** How fast the chance falls around HALF_AT. */
  STEEPNESS: 2,
  /** How much a look-alike multiplies the odds of a wrong choice (s = 1: by 1 + CONFUSION). */
  CONFUSION: 1.5,
} as const;

/** The chance the persona picks the right tool among `shown` tools, the closest other one `similarity` alike. */
export function selectionChance(shown: number, similarity: number): number {
  const { HALF_AT, STEEPNESS, CONFUSION } = SELECTION_CURVE;
  const odds = (Math.max(1, shown) / HALF_AT) ** STEEPNESS * (1 + CONFUSION * Math.max(0, Math.min(1, similarity)));
  return 1 / (1 + odds);
}
