import type { RenderedTool } from '../../src/contracts/model.js';
import { markStable } from './redact.js';

/** Per tool list, per wire shape: the converted list. */
const converted = new WeakMap<readonly RenderedTool[], Map<string, readonly object[]>>();

/**
 * A request's tool list in one API's wire shape, converted once per list and shape. Every turn of a case shares its
 * request's tool list (and a renderer shares one list across cases), so converting per turn rebuilt the same
 * objects and made redaction rescan them (providers/shared/redact.ts). The result is frozen (the SDKs only read it;
 * a write would throw rather than silently change a shared list) and marked stable for redaction. `shape` names
 * the conversion: two conversions of one list must use different shapes.
 */
export function wireTools<T extends object>(
  tools: readonly RenderedTool[],
  shape: string,
  convert: (tools: readonly RenderedTool[]) => T[],
): T[] {
  let byShape = converted.get(tools);
  if (!byShape) {
    byShape = new Map();
    converted.set(tools, byShape);
  }
  let list = byShape.get(shape);
  if (!list) {
    const fresh = convert(tools);
    for (const tool of fresh) Object.freeze(tool);
    list = markStable(Object.freeze(fresh));
    byShape.set(shape, list);
  }
  // The SDK parameter types want a mutable array; the frozen list is only ever read.
  return list as T[];
}
