import type { JSONSchema } from '../contracts/json-schema.js';

/**
 * BFCL's parameter types → JSON Schema types. BFCL writes Python-flavoured names (`dict`, `float`, `tuple`,
 * `any`); `any` has no JSON Schema type, so it becomes an unconstrained schema.
 */
const TYPE_MAP: Record<string, string | null> = {
  dict: 'object',
  object: 'object',
  float: 'number',
  number: 'number',
  double: 'number',
  integer: 'integer',
  int: 'integer',
  long: 'integer',
  string: 'string',
  str: 'string',
  char: 'string',
  boolean: 'boolean',
  bool: 'boolean',
  array: 'array',
  list: 'array',
  tuple: 'array',
  ArrayList: 'array',
  HashMap: 'object',
  any: null,
};

/** Keywords copied as they are (standard JSON Schema); BFCL's `optional` flag is dropped (it is `required`'s job). */
const KEPT = ['description', 'enum', 'default', 'format', 'minimum', 'maximum', 'minItems', 'maxItems', 'pattern'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One BFCL parameter description (or the `parameters` object itself) as JSON Schema, recursively. */
export function bfclToJsonSchema(param: unknown, unknownTypes?: Set<string>): JSONSchema {
  if (!isRecord(param)) return {};
  const out: JSONSchema = {};
  const bfclType = typeof param.type === 'string' ? param.type : undefined;
  const mapped = bfclType === undefined ? undefined : TYPE_MAP[bfclType];
  // Python's `None` default (`"default": null`) means the parameter accepts None: nullable in JSON Schema.
  if (mapped) out.type = param.default === null && mapped !== 'null' ? [mapped, 'null'] : mapped;
  else if (bfclType !== undefined && mapped === undefined) unknownTypes?.add(bfclType); // left unconstrained
  for (const key of KEPT) if (key in param) out[key] = param[key];
  if (isRecord(param.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(param.properties).map(([k, v]) => [k, bfclToJsonSchema(v, unknownTypes)]),
    );
    if (out.type === undefined) out.type = 'object';
  }
  if (Array.isArray(param.required) && param.required.length > 0) out.required = [...param.required];
  if ('items' in param) out.items = bfclToJsonSchema(param.items, unknownTypes);
  // BFCL puts the item values of an array parameter in the array's own `enum`; JSON Schema wants them on `items`.
  if (out.type === 'array' && Array.isArray(out.enum) && !out.enum.some(Array.isArray)) {
    out.items = { ...(isRecord(out.items) ? out.items : {}), enum: out.enum };
    delete out.enum;
  }
  if ('additionalProperties' in param) {
    const ap = param.additionalProperties;
    out.additionalProperties = typeof ap === 'boolean' ? ap : bfclToJsonSchema(ap, unknownTypes);
  }
  return out;
}
