import { jsonrepair } from 'jsonrepair';
import { takeRepairChars } from './reply-budget.js';

/** jsonrepair is recursive; beyond this size we do not ask it (the text is not a tool call anyway). */
const MAX_REPAIR_CHARS = 200_000;

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
    if (raw.length > MAX_REPAIR_CHARS || !takeRepairChars(raw.length)) return { ok: false, error: errorText(first) };
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
