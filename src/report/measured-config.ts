import type { RunHeader } from '../run-log/schema.js';
import { hashOf } from '../util/canonical-json.js';

/**
 * Provider options that change how a run is carried out, not what it measures: waiting, retrying, pacing, the HTTP
 * client, and where the key comes from (`headers` may carry a credential: never hashed).
 */
const OPERATIONAL_OPTIONS = new Set([
  'timeoutMs',
  'maxRetries',
  'retryBaseMs',
  'retryMaxMs',
  'concurrency',
  'rpm',
  'apiKeyEnv',
  'headers',
  'transport',
  'maxResponseMb',
]);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A server's address as far as it names the server: no userinfo, query or fragment (where credentials go). */
function serverOf(url: unknown): unknown {
  if (typeof url !== 'string' || !URL.canParse(url)) return url;
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

function measuredOptions(options: unknown): Record<string, unknown> {
  if (!isRecord(options)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (OPERATIONAL_OPTIONS.has(key)) continue;
    out[key] = key === 'baseURL' ? serverOf(value) : value;
  }
  return out;
}

/** A renderer or provider entry as `{name|id, options}`: a label only names a cell, and `x` is `{ name: x }`. */
function entry(value: unknown, idKey: 'name' | 'id', options: (o: unknown) => unknown): Record<string, unknown> {
  if (typeof value === 'string') return { [idKey]: value, options: options(undefined) };
  if (!isRecord(value)) return { [idKey]: value };
  return { [idKey]: value[idKey], options: options(value.options) };
}

const list = (v: unknown) => (Array.isArray(v) ? v : []);

/** What of a run header the config hash reads (doctor builds it from a config before any run). */
export type MeasuredParts = Pick<RunHeader, 'config' | 'suites' | 'suiteHashes'>;

/**
 * The parts of a run's configuration that change what it measures, which the baseline's `configHash` covers: what
 * each suite file holds (by content, not by path: a checkout anywhere, with any line endings, is the same suite), the
 * renderer strategies and their options, the providers with the options that change a reply (model, server address,
 * sampling, API, streaming: not timeouts, retries, pacing, transport, key variable or headers), the graders, repeats,
 * seed and maxTurns, and the command (a `grade` of recorded replies is not an `eval`). Left out: the gate, the timeouts,
 * concurrency, `out`, the reporters, every label and the cases `--filter`, `--tag` or `--shard` narrowed a run to
 * (the comparison pairs cases), which change no measurement. A run log written before suites were hashed has only
 * their names to go by.
 */
export function measuredConfig(header: MeasuredParts): Record<string, unknown> {
  const c = header.config;
  return {
    command: c.command ?? 'eval',
    suites: header.suiteHashes ?? header.suites.map((s) => s.name),
    renderers: list(c.renderers).map((r) => entry(r, 'name', (o) => (isRecord(o) ? o : {}))),
    providers: list(c.providers).map((p) => entry(p, 'id', measuredOptions)),
    graders: c.graders ?? null,
    repeats: c.repeats ?? 1,
    seed: c.seed ?? null,
    maxTurns: c.maxTurns ?? null,
  };
}

/** The baseline's `configHash`: the first 16 hex digits of the SHA-256 of measuredConfig's canonical JSON. */
export function configHash(header: MeasuredParts): string {
  return hashOf(measuredConfig(header)).slice(0, 16);
}
