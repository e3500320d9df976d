import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { JSONSchema } from '../contracts/json-schema.js';
import { canonicalJson } from '../util/canonical-json.js';
import { MAX_JSON_DEPTH, nestsTooDeep } from '../util/json-depth.js';
import { compileSubset, type FormatTable, type SubsetValidate } from './schema-subset.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object on some toolchains.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;

/** An ajv as the graders configure it (every error, formats checked, unknown keywords ignored). */
export function newAjv(): Ajv {
  const instance = new Ajv({ allErrors: true, strict: false, validateFormats: true });
  addFormats(instance);
  return instance;
}

const ajv = newAjv();
/** A separate instance for checkWithAjv: ajv remembers schemas that failed to compile. */
let referenceAjv: Ajv | undefined;

/** A compiled check: the subset validator, ajv's, or why the schema does not compile. */
type Compiled = { subset: SubsetValidate } | ValidateFunction | string;

const cache = new Map<string, Compiled>();
/** By schema object first: the canonical-JSON key of a large schema costs more than validating with it. */
const byObject = new WeakMap<object, Compiled>();

export type SchemaCheck = { ok: true } | { ok: false; errors: string[] } | { ok: 'skipped'; reason: string };

interface ErrorLike {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

function compile(schema: JSONSchema): Compiled {
  // The subset validator first (no code generation: see schema-subset.ts); ajv for everything else.
  const subset = compileSubset(schema, ajv.formats as FormatTable);
  if (subset) return { subset };
  const key = canonicalJson(schema);
  let compiled = cache.get(key);
  if (compiled === undefined) {
    try {
      compiled = ajv.compile(schema);
    } catch (e) {
      compiled = `schema does not compile: ${e instanceof Error ? e.message : String(e)}`;
    }
    cache.set(key, compiled);
  }
  return compiled;
}

/**
 * Validates arguments against a tool's input schema (compiled once per distinct schema object). Arguments nested
 * MAX_JSON_DEPTH levels deep or more are not validated (ajv's checks recurse): `skipped`, the argument matcher
 * fails them.
 */
export function checkAgainstSchema(schema: JSONSchema, args: unknown): SchemaCheck {
  if (nestsTooDeep(args)) return { ok: 'skipped', reason: `arguments nest ${MAX_JSON_DEPTH} levels deep or more` };
  let compiled = byObject.get(schema);
  if (compiled === undefined) {
    compiled = compile(schema);
    byObject.set(schema, compiled);
  }
  if (typeof compiled === 'string') return { ok: 'skipped', reason: compiled };
  let errors: ErrorLike[];
  if (typeof compiled === 'function') {
    if (compiled(args)) return { ok: true };
    errors = compiled.errors ?? [];
  } else {
    errors = compiled.subset(args);
    if (errors.length === 0) return { ok: true };
  }
  return { ok: false, errors: errors.map(describeError) };
}

function describeError(e: ErrorLike): string {
  const where = e.instancePath ? e.instancePath.slice(1).replaceAll('/', '.') : '(arguments)';
  const extra = e.keyword === 'additionalProperties' ? ` '${String(e.params.additionalProperty)}'` : '';
  const allowed = e.keyword === 'enum' ? ` ${JSON.stringify(e.params.allowedValues)}` : '';
  return `${where} ${e.message ?? e.keyword}${extra}${allowed}`;
}

/** ajv's own result, bypassing the subset validator (for tests that compare the two). */
export function checkWithAjv(schema: JSONSchema, args: unknown): SchemaCheck {
  referenceAjv ??= newAjv();
  let validate: ValidateFunction;
  try {
    validate = referenceAjv.compile(schema);
  } catch (e) {
    return { ok: 'skipped', reason: `schema does not compile: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (validate(args)) return { ok: true };
  return { ok: false, errors: (validate.errors ?? []).map(describeError) };
}
