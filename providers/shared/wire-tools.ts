import type { RenderedTool } from '../../src/contracts/model.js';

/**
 * A request's tool list in one API's wire shape (`shape` names the conversion, e.g. `openai`, `anthropic+cache`).
 * Converted on every turn: a few microseconds beside a model's answer, and a fresh list that nothing else shares.
 */
export function wireTools<T extends object>(
  tools: readonly RenderedTool[],
  _shape: string,
  convert: (tools: readonly RenderedTool[]) => T[],
): T[] {
  return convert(tools);
}
