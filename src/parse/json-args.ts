import { jsonrepair } from 'jsonrepair';

/** jsonrepair is recursive; beyond this size we do not ask it (the text is not a tool call anyway). */
const MAX_REPAIR_CHARS = 200_000;

/**
 * Characters jsonrepair may still be given while one reply is parsed. A failed repair costs a thrown error and a scan
 * of the whole candidate, and a reply of 1 MB of broken tags and fences holds thousands of candidates, each running
 * to the next tag: without a budget that is quadratic. `parseResponse` sets it per reply (it is synchronous, so no
 * other reply interleaves) and lifts it afterwards.
 */
let repairBudget = Number.POSITIVE_INFINITY;

/** Runs `parse` with a jsonrepair budget of `chars`; outside it, repair is unbounded. */
export function withRepairBudget<T>(chars: number, parse: () => T): T {
  repairBudget = chars;
  try {
    return parse();
  } finally {
    repairBudget = Number.POSITIVE_INFINITY;
  }
}

export type JsonParse =
  | { ok: true; value: unknown; repaired: boolean; doubleEncoded: boolean }
  | { ok: false; error: string };

/**
 * JSON.parse first; then jsonrepair (flagged `repaired`); a JSON string that itself holds JSON (a
 * "double-encoded" object, as some models and servers send) is decoded once more. Never throws.
 */
export function parseJsonText(raw: string): JsonParse {
  let value: unknown;
  let repaired = false;
  try {
    value = JSON.parse(raw);
  } catch (first) {
    if (raw.length > MAX_REPAIR_CHARS || raw.length > repairBudget) return { ok: false, error: errorText(first) };
    repairBudget -= raw.length;
    try {
      value = JSON.parse(jsonrepair(raw));
      repaired = true;
    } catch {
      return { ok: false, error: errorText(first) };
    }
  }
  return decodeTwice(value, repaired);
}

function decodeTwice(value: unknown, repaired: boolean): JsonParse {
  if (typeof value !== 'string') return { ok: true, value, repaired, doubleEncoded: false };
  const inner = value.trim();
  if (!(inner.startsWith('{') || inner.startsWith('['))) return { ok: true, value, repaired, doubleEncoded: false };
  try {
    return { ok: true, value: JSON.parse(inner), repaired, doubleEncoded: true };
  } catch {
    return { ok: true, value, repaired, doubleEncoded: false };
  }
}

/** Arguments as a provider or a call object carries them: an object, or a (possibly double-encoded) string. */
export function parseArguments(raw: unknown): JsonParse {
  if (raw === undefined || raw === null) return { ok: true, value: {}, repaired: false, doubleEncoded: false };
  if (typeof raw !== 'string') return { ok: true, value: raw, repaired: false, doubleEncoded: false };
  if (raw.trim() === '') return { ok: true, value: {}, repaired: false, doubleEncoded: false };
  return parseJsonText(raw);
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
