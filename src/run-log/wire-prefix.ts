/*
 * Packing rule w (docs/run-log.md): a real provider's raw wire request repeats the whole conversation on every turn
 * (the system prompt, every earlier message and reply, the tool list), so a case's log would grow with the square of
 * its turns. A turn's raw request whose array fields begin with the previous turn's same fields holds only the
 * elements it adds, and its reply holds `rawPrior`: how many elements each such field takes from the previous turn.
 */

import { isObject } from './packing.js';
import { sameJson } from './same-json.js';

/** A raw request's array fields, and how many elements each takes from the previous turn's. */
export type WirePrior = Record<string, number>;

/**
 * The raw request with each array field that begins with the previous raw request's same field cut to what it
 * adds, and the counts; undefined when no field does (or either request is not a plain object).
 */
export function cutWirePrefix(
  request: unknown,
  previous: unknown,
): { request: Record<string, unknown>; prior: WirePrior } | undefined {
  if (!isObject(request) || !isObject(previous)) return undefined;
  let cut: Record<string, unknown> | undefined;
  let prior: WirePrior | undefined;
  for (const k of Object.keys(request)) {
    const now = request[k];
    const before = previous[k];
    if (!Array.isArray(now) || !Array.isArray(before) || before.length === 0 || before.length > now.length) continue;
    let same = true;
    for (let i = 0; i < before.length && same; i++) same = sameJson(now[i], before[i]);
    if (!same) continue;
    cut ??= { ...request };
    prior ??= {};
    cut[k] = now.slice(before.length);
    prior[k] = before.length;
  }
  return cut && prior ? { request: cut, prior } : undefined;
}

/** The raw request of a turn written under rule w, from the previous turn's (decoded) raw request. */
export function restoreWirePrefix(request: unknown, previous: unknown, prior: unknown): Record<string, unknown> {
  if (!isObject(request) || !isObject(previous) || !isObject(prior))
    throw new Error('rawPrior: the raw request, the previous turn or the counts are not objects');
  const out: Record<string, unknown> = { ...request };
  for (const [k, n] of Object.entries(prior)) {
    const before = previous[k];
    const added = request[k];
    if (typeof n !== 'number' || !Array.isArray(before) || n > before.length || !Array.isArray(added))
      throw new Error(`rawPrior.${k}: ${JSON.stringify(n)} is not a count of the previous turn's ${k}`);
    out[k] = [...before.slice(0, n), ...added];
  }
  return out;
}
