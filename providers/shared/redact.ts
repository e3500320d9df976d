/**
 * Secret redaction. Every key a provider reads is registered here; `redactSecrets` replaces each known value
 * wherever it appears (deeply, in strings and object keys) so no key reaches a log, report, cassette or error.
 */
const secrets = new Set<string>();

/** The marker that replaces a secret. */
export const REDACTED = '[REDACTED]';

/** Headers whose values are credentials whatever their content. */
const SECRET_HEADER = /^(authorization|proxy-authorization|x-api-key|api-key|x-goog-api-key|cookie)$/i;

/** Remember a secret value (keys shorter than 6 characters are ignored: too likely to match ordinary text). */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 6) secrets.add(value);
}

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name);
}

/** A deep copy of `value` with every registered secret (and every credential header value) replaced. */
export function redactSecrets<T>(value: T, extra: readonly string[] = []): T {
  const all = [...secrets, ...extra.filter((s) => s.length >= 6)].sort((a, b) => b.length - a.length);
  return walk(value, all, new WeakMap()) as T;
}

/** Redacts a plain string. */
export function redactText(text: string, extra: readonly string[] = []): string {
  return redactSecrets(text, extra);
}

function replaceAll(text: string, all: readonly string[]): string {
  let out = text;
  for (const s of all) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

function walk(value: unknown, all: readonly string[], seen: WeakMap<object, unknown>): unknown {
  if (typeof value === 'string') return replaceAll(value, all);
  if (value === null || typeof value !== 'object') return value;
  const cached = seen.get(value);
  if (cached !== undefined) return cached;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const v of value) out.push(walk(v, all, seen));
    return out;
  }
  if (value instanceof Error) {
    const out = new Error(replaceAll(value.message, all));
    seen.set(value, out);
    return out;
  }
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const [k, v] of Object.entries(value)) {
    out[replaceAll(k, all)] = isSecretHeader(k) && typeof v === 'string' ? REDACTED : walk(v, all, seen);
  }
  return out;
}
