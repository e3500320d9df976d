import { jsonText } from './json-text.js';

/**
 * Secret redaction. Every key a provider reads is registered here; `redactSecrets` replaces each known value
 * wherever it appears (deeply, in strings and object keys) so no key reaches a log, report, cassette or error.
 */
const secrets = new Set<string>();
/** `secrets`, longest first (a key containing another is replaced whole); rebuilt when a secret is added. */
let ordered: string[] = [];

/** The marker that replaces a secret. */
export const REDACTED = '[REDACTED]';

/** Headers whose values are credentials whatever their content. */
const SECRET_HEADER = /^(authorization|proxy-authorization|x-api-key|api-key|x-goog-api-key|cookie)$/i;
/**
 * Header names that carry a credential beyond the standard ones (X-Portal-Token, Ocp-Apim-Subscription-Key,
 * X-Auth-User…). Used when registering a config's headers, not on the hot path of `redactSecrets`.
 */
const CREDENTIAL_HEADER = /key|token|secret|auth|passw|cookie|session|signature|credential/i;
/** Option names whose string values are credentials (a provider plugin's `apiKey`, `token`, `password`…). */
const SECRET_OPTION =
  /^(api[-_]?key|api[-_]?token|access[-_]?token|auth[-_]?token|bearer[-_]?token|token|secret|client[-_]?secret|password|passwd)$/i;
/** URL query parameters that carry a credential (`?key=`, `?api_key=`, `?token=`, `?sig=`…). */
const SECRET_QUERY =
  /^(key|api[-_]?key|x-goog-api-key|token|api[-_]?token|access[-_]?token|auth|auth[-_]?token|secret|client[-_]?secret|password|passwd|pwd|sig|signature)$/i;
/**
 * A header value shaped like a key whatever the header is called (`X-Custom: sk-proj-3f9a…`): one word of 16 or more
 * key characters with letters and digits. Over-redacting an id sent this way costs nothing; leaking a key does.
 */
const TOKEN_LIKE = /^(?=[^\s]*\d)(?=[^\s]*[A-Za-z])[A-Za-z0-9_\-.~+/=]{16,}$/;
/** A header value that names its scheme: the credential is what follows (`Bearer sk-…`, `Basic dXNlcjpw…`). */
const SCHEME_VALUE = /^(?:bearer|basic|token|apikey|key)\s+(\S+)$/i;

/** Remember a secret value (keys shorter than 6 characters are ignored: too likely to match ordinary text). */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < 6 || secrets.has(value)) return;
  secrets.add(value);
  ordered = [...secrets].sort((a, b) => b.length - a.length);
}

/**
 * Registers every credential a config value carries, found by its shape wherever it sits: the values of credential
 * headers inside a `headers` object (and the token after `Bearer `), options named like a key (`apiKey`, `token`,
 * `password`…), and the credentials inside any URL (`https://user:pass@host/…`, `?key=…`, `?api_key=…`). Fed with
 * every provider's options before anything is sent or written, so `redactSecrets` can replace them everywhere —
 * including where a server or an SDK quotes them back (an error message, a reply, a URL in a stack).
 */
export function registerCredentials(value: unknown): void {
  collect(value, false, 0);
}

function collect(value: unknown, inHeaders: boolean, depth: number): void {
  if (value === null || typeof value !== 'object' || depth > 32) return;
  if (Array.isArray(value)) {
    for (const v of value) collect(v, false, depth + 1);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') {
      collect(v, /^(headers|default[-_]?headers|extra[-_]?headers)$/i.test(k), depth + 1);
      continue;
    }
    const credential = inHeaders
      ? isSecretHeader(k) || CREDENTIAL_HEADER.test(k) || TOKEN_LIKE.test(v)
      : SECRET_OPTION.test(k);
    if (credential) registerSecret(v);
    const scheme = SCHEME_VALUE.exec(v.trim());
    if (scheme?.[1] && (inHeaders || SECRET_OPTION.test(k))) {
      registerSecret(scheme[1]);
      // Basic credentials are base64 of `user:password`: the password may be quoted back in clear.
      if (/^basic/i.test(v.trim()))
        registerSecret(/^[^:]*:(.+)$/s.exec(Buffer.from(scheme[1], 'base64').toString())?.[1]);
    }
    if (v.includes('://')) registerUrlCredentials(v);
  }
}

/**
 * Registers the credentials inside a URL: the password of its userinfo (or the user alone, which is then the
 * token, as in `https://TOKEN@host`), and the values of credential query parameters, both as written and decoded.
 */
export function registerUrlCredentials(text: string | undefined): void {
  if (!text) return;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return;
  }
  const secret = url.password || url.username;
  if (secret) {
    registerSecret(secret);
    registerSecret(safeDecode(secret));
  }
  for (const pair of url.search.slice(1).split('&')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || !SECRET_QUERY.test(safeDecode(pair.slice(0, eq)))) continue;
    const raw = pair.slice(eq + 1);
    registerSecret(raw);
    registerSecret(safeDecode(raw.replace(/\+/g, ' ')));
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Whether a header's value is a credential whatever its content (Authorization, X-Api-Key, Cookie…). */
export function isSecretHeader(name: string): boolean {
  // Called for every key of every raw request and response: reject by length and first letter before the regex.
  const n = name.length;
  if (n < 6 || n > 19) return false;
  const first = name.charCodeAt(0) | 0x20; // ASCII lower case
  if (first !== 0x61 && first !== 0x63 && first !== 0x70 && first !== 0x78) return false; // a c p x
  return SECRET_HEADER.test(name);
}

/**
 * A deep copy of `value` with every registered secret (and every credential header value) replaced — or `value`
 * itself when nothing in it needs replacing (the common case: it is then not copied; the input is never mutated).
 * Runs on every model turn over the whole raw request, so a read-only scan comes first: copying the request's tool
 * schemas on each turn was the largest harness cost per turn (bench/provider-overhead.ts).
 */
export function redactSecrets<T>(value: T, extra: readonly string[] = []): T {
  const more = extra.filter((s) => s.length >= 6);
  const all = more.length ? [...ordered, ...more].sort((a, b) => b.length - a.length) : ordered;
  const shortest = all.length ? all[all.length - 1]!.length : Number.POSITIVE_INFINITY;
  if (!needsRedaction(value, all, shortest, 0)) return value;
  return walk(value, all, new WeakMap()) as T;
}

/**
 * Whether `walk` would change anything. Allocation-free; deep (or cyclic) values defer to `walk`. Most strings of a
 * request (schema keywords, property names) are shorter than the shortest secret and cannot contain one: they are
 * skipped by length before any substring search.
 */
function needsRedaction(value: unknown, all: readonly string[], shortest: number, depth: number): boolean {
  if (typeof value === 'string') return value.length >= shortest && containsAny(value, all);
  if (value === null || typeof value !== 'object') return false;
  // Errors are always rebuilt from their message (their other fields may hold request headers).
  if (depth > 64 || value instanceof Error) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (needsRedaction(value[i], all, shortest, depth + 1)) return true;
  } else {
    // Own enumerable keys, like Object.entries in `walk` (Object.keys measured ~10% faster than for-in with hasOwn)
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      if (isSecretHeader(k) || (k.length >= shortest && containsAny(k, all))) return true;
      if (needsRedaction((value as Record<string, unknown>)[k], all, shortest, depth + 1)) return true;
    }
  }
  return false;
}

function containsAny(text: string, all: readonly string[]): boolean {
  for (const s of all) if (text.includes(s)) return true;
  return false;
}

/**
 * `redacted` (a config as a run log's header keeps it) with every string redaction changed taken back from `original`
 * at the same place — the config file it came from: how a resumed or replayed run gets the credentials its header
 * does not hold. Only a string that redacts to exactly what the header holds is taken (the file may have changed
 * since the run); any other place keeps the redacted value.
 */
export function restoreRedacted<T>(redacted: T, original: unknown): T {
  registerCredentials(original);
  return restore(redacted, original, 0) as T;
}

function restore(redacted: unknown, original: unknown, depth: number): unknown {
  if (typeof redacted === 'string') {
    const same = redacted.includes(REDACTED) && typeof original === 'string' && redactText(original) === redacted;
    return same ? original : redacted;
  }
  if (redacted === null || typeof redacted !== 'object' || depth > 64) return redacted;
  const from = original !== null && typeof original === 'object' ? (original as Record<string, unknown>) : {};
  if (Array.isArray(redacted)) {
    return redacted.map((v, i) => restore(v, Array.isArray(original) ? original[i] : undefined, depth + 1));
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(redacted)) {
    const value = restore(v, Object.hasOwn(from, k) ? from[k] : undefined, depth + 1);
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
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

/**
 * Levels the redacted copy keeps as objects. A model can write arguments nested thousands deep; below this depth the
 * value is kept as its (redacted) JSON text, so the copy never overflows the stack.
 */
const MAX_WALK_DEPTH = 256;

function walk(value: unknown, all: readonly string[], seen: WeakMap<object, unknown>, depth = 0): unknown {
  if (typeof value === 'string') return replaceAll(value, all);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_WALK_DEPTH) return replaceAll(jsonText(value) ?? '', all);
  const cached = seen.get(value);
  if (cached !== undefined) return cached;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const v of value) out.push(walk(v, all, seen, depth + 1));
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
    const key = replaceAll(k, all);
    const copy = isSecretHeader(k) && typeof v === 'string' ? REDACTED : walk(v, all, seen, depth + 1);
    // `out['__proto__'] = …` would set the copy's prototype instead of a key (JSON.parse makes `__proto__` an own
    // key): define it as the ordinary property it was.
    if (key === '__proto__') {
      Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    } else out[key] = copy;
  }
  return out;
}
