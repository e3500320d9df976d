/**
 * Reasoning written in a model family's own channel markup rather than `<think>` tags: spans `[start, end)` whose
 * calls are reported as `call-in-think`, not calls. Linear; returns at once when the markup is absent.
 */
export function findReasoningChannels(_text: string): Array<[number, number]> {
  return [];
}
