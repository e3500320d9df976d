import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { JSONSchema } from '../contracts/json-schema.js';
import { canonicalJson } from '../util/canonical-json.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object on some toolchains.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true });
addFormats(ajv);
const cache = new Map<string, ValidateFunction | string>();
/** By schema object first: the canonical-JSON key of a large schema costs more than validating with it. */
const byObject = new WeakMap<object, ValidateFunction | string>();

export type SchemaCheck = { ok: true } | { ok: false; errors: string[] } | { ok: 'skipped'; reason: string };

/** Validates arguments against a tool's input schema (ajv, compiled once per distinct schema). */
export function checkAgainstSchema(schema: JSONSchema, args: unknown): SchemaCheck {
  let validate = byObject.get(schema);
  if (validate === undefined) {
    const key = canonicalJson(schema);
    validate = cache.get(key);
    if (validate === undefined) {
      try {
        validate = ajv.compile(schema);
      } catch (e) {
        validate = `schema does not compile: ${e instanceof Error ? e.message : String(e)}`;
      }
      cache.set(key, validate);
    }
    byObject.set(schema, validate);
  }
  if (typeof validate === 'string') return { ok: 'skipped', reason: validate };
  if (validate(args)) return { ok: true };
  const errors = (validate.errors ?? []).map((e) => {
    const where = e.instancePath ? e.instancePath.slice(1).replaceAll('/', '.') : '(arguments)';
    const extra = e.keyword === 'additionalProperties' ? ` '${String(e.params.additionalProperty)}'` : '';
    const allowed = e.keyword === 'enum' ? ` ${JSON.stringify(e.params.allowedValues)}` : '';
    return `${where} ${e.message ?? e.keyword}${extra}${allowed}`;
  });
  return { ok: false, errors };
}
