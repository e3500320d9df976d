/**
 * A JSON Schema validator for the small subset tool schemas use (type, enum, required, properties,
 * additionalProperties, items, min/maxItems, number limits, annotations), built as a tree of closures.
 * Hand-written because ajv compiles each schema to code (~0.7 ms a schema): grading 20,000 BFCL outputs meets
 * ~2,000 distinct schemas, and compiling them cost more than all the grading. It reproduces ajv's results exactly
 * (same options as schema-check.ts: draft-07, allErrors, strict off): same errors, messages, paths and order,
 * following ajv's keyword groups (untyped, number, string, array, object) and its type-check placement.
 * `schema-subset.test.ts` checks it against ajv on every bundled schema. Anything outside the subset (or
 * invalid against the meta-schema) returns null and goes to ajv.
 */

export interface SubsetError {
  instancePath: string;
  keyword: string;
  message: string;
  params: { additionalProperty?: string; allowedValues?: unknown[]; missingProperty?: string };
}

export type SubsetValidate = (data: unknown) => SubsetError[];

type Check = (data: unknown, path: string, out: SubsetError[]) => void;

const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples']);
const SUPPORTED = new Set([
  ...ANNOTATIONS,
  'type',
  'enum',
  'required',
  'properties',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'format',
]);
const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
const NUMBER_KEYWORDS = ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum'] as const;
const NUMBER_LIMITS: Record<(typeof NUMBER_KEYWORDS)[number], [string, (d: number, l: number) => boolean]> = {
  maximum: ['<=', (d, l) => d > l],
  minimum: ['>=', (d, l) => d < l],
  exclusiveMaximum: ['<', (d, l) => d >= l],
  exclusiveMinimum: ['>', (d, l) => d <= l],
};

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** ajv's type test with `strictNumbers` off (what `strict: false` implies). */
function hasType(type: string, data: unknown): boolean {
  switch (type) {
    case 'null':
      return data === null;
    case 'array':
      return Array.isArray(data);
    case 'object':
      return isPlainObject(data);
    case 'integer':
      return typeof data === 'number' && !(data % 1) && !Number.isNaN(data);
    default:
      return typeof data === type;
  }
}

function hasAnyType(types: string[], data: unknown): boolean {
  for (const t of types) if (hasType(t, data)) return true;
  return false;
}

/** fast-deep-equal (what ajv's enum uses for object values) over JSON values. */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    if (a.constructor !== b.constructor) return false;
    if (Array.isArray(a)) {
      const bb = b as unknown[];
      if (a.length !== bb.length) return false;
      for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i])) return false;
      return true;
    }
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!Object.hasOwn(b, k)) return false;
    for (const k of ka)
      if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
    return true;
  }
  return Number.isNaN(a) && Number.isNaN(b);
}

function escapePointer(key: string): string {
  return key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;
}

function isNonNegativeInteger(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}

function uniqueStrings(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') && new Set(v).size === v.length;
}

/** A format as ajv holds it (`ajv.formats`): a RegExp, a function, `true`, or `{type?, validate, async?}`. */
export type FormatTable = Record<string, unknown>;

/** A known, synchronous format: the data type it applies to and its test; null when ajv must handle it. */
function formatTest(formats: FormatTable | undefined, name: unknown): [string, (s: unknown) => boolean] | 'any' | null {
  if (typeof name !== 'string' || !formats || !Object.hasOwn(formats, name)) return null;
  const def = formats[name];
  if (def === true) return 'any';
  const test = (f: unknown): ((s: unknown) => boolean) | null =>
    isRegExp(f) ? (x) => f.test(x as string) : typeof f === 'function' ? (x) => Boolean(f(x)) : null;
  if (isPlainObject(def) && !isRegExp(def)) {
    if (def.async) return null;
    const t = test(def.validate);
    return t ? [typeof def.type === 'string' ? def.type : 'string', t] : null;
  }
  const t = test(def);
  return t ? ['string', t] : null;
}

/** Cross-realm (vitest loads ajv-formats in another realm than the tests). */
function isRegExp(v: unknown): v is RegExp {
  return Object.prototype.toString.call(v) === '[object RegExp]';
}

/**
 * Compiles `schema`, or returns null when it is outside the subset (the caller then uses ajv). `formats` is the
 * ajv instance's format table (`ajv.formats`), so `format` is checked by the very same tests.
 */
export function compileSubset(schema: unknown, formats?: FormatTable): SubsetValidate | null {
  const check = node(schema, formats);
  if (!check) return null;
  return (data) => {
    const out: SubsetError[] = [];
    check(data, '', out);
    return out;
  };
}

function node(s: unknown, formats: FormatTable | undefined): Check | null {
  if (!isPlainObject(s)) return null;
  for (const key of Object.keys(s)) if (!SUPPORTED.has(key)) return null;
  // what the draft-07 meta-schema demands of the annotations and limits (ajv refuses to compile otherwise)
  if (s.description !== undefined && typeof s.description !== 'string') return null;
  if (s.title !== undefined && typeof s.title !== 'string') return null;
  if (s.examples !== undefined && !Array.isArray(s.examples)) return null;
  for (const k of ['minItems', 'maxItems'] as const) if (s[k] !== undefined && !isNonNegativeInteger(s[k])) return null;
  for (const k of NUMBER_KEYWORDS) if (s[k] !== undefined && typeof s[k] !== 'number') return null;
  let types: string[] = [];
  if (s.type !== undefined) {
    types = Array.isArray(s.type) ? s.type : [s.type];
    if (types.length === 0 || !uniqueStrings(types) || !types.every((t) => JSON_TYPES.has(t))) return null;
  }
  const enumValues = s.enum;
  if (enumValues !== undefined && (!Array.isArray(enumValues) || enumValues.length === 0)) return null;
  if (s.required !== undefined && !uniqueStrings(s.required)) return null;
  const required = (s.required as string[] | undefined) ?? [];

  let props: Array<[string, Check]> = [];
  let propNames: Set<string> = new Set();
  if (s.properties !== undefined) {
    if (!isPlainObject(s.properties) || Object.hasOwn(s.properties, '__proto__')) return null;
    propNames = new Set(Object.keys(s.properties));
    for (const [name, sub] of Object.entries(s.properties)) {
      const c = node(sub, formats);
      if (!c) return null;
      props.push([name, c]);
    }
    props = props.filter(([name]) => !alwaysValid(s.properties as Record<string, unknown>, name));
  }
  // parallel arrays, each property's path suffix escaped once: validation runs per graded call
  const propKeys = props.map(([name]) => name);
  const propChecks = props.map(([, check]) => check);
  const propSuffixes = props.map(([name]) => `/${escapePointer(name)}`);
  const additional = s.additionalProperties;
  let additionalCheck: Check | 'forbidden' | undefined;
  if (additional === false) additionalCheck = 'forbidden';
  else if (additional !== undefined && additional !== true) {
    const c = node(additional, formats);
    if (!c) return null;
    additionalCheck = hasRules(additional) ? c : undefined;
  }
  let itemsCheck: Check | undefined;
  if (s.items !== undefined) {
    const c = node(s.items, formats);
    if (!c) return null;
    itemsCheck = hasRules(s.items) ? c : undefined;
  }

  let format: [string, (x: unknown) => boolean] | undefined;
  if (s.format !== undefined) {
    const f = formatTest(formats, s.format);
    if (f === null) return null;
    if (f !== 'any') format = f;
  }
  const formatError = (path: string, out: SubsetError[]) =>
    out.push({ instancePath: path, keyword: 'format', message: `must match format "${s.format}"`, params: {} });
  const used = (keys: readonly string[]) => keys.some((k) => s[k] !== undefined);
  // `format` belongs to both the number and the string group in ajv
  const numberUsed = used([...NUMBER_KEYWORDS, 'format']);
  const stringUsed = s.format !== undefined;
  const arrayUsed = used(['maxItems', 'minItems', 'items']);
  const objectUsed = used(['required', 'additionalProperties', 'properties']);
  const groupUsed = (t: string) =>
    t === 'number'
      ? numberUsed
      : t === 'string'
        ? stringUsed
        : t === 'array'
          ? arrayUsed
          : t === 'object' && objectUsed;
  // ajv checks the type up front unless the single type has keywords of its own group (then in that group's else)
  const upfront = types.length > 0 && !(types.length === 1 && groupUsed(types[0] as string));
  const single = !upfront && types.length === 1 ? types[0] : undefined;
  const typeMessage = `must be ${types.join(',')}`;
  const typeError = (path: string, out: SubsetError[]) =>
    out.push({ instancePath: path, keyword: 'type', message: typeMessage, params: {} });
  const primitiveEnum = enumValues?.every((v) => typeof v !== 'object' || v === null) ?? false;
  const numberLimits = NUMBER_KEYWORDS.filter((k) => s[k] !== undefined).map(
    (k) => [s[k] as number, ...NUMBER_LIMITS[k]] as const,
  );
  const maxItems = s.maxItems as number | undefined;
  const minItems = s.minItems as number | undefined;

  return (data, path, out) => {
    if (upfront && !hasAnyType(types, data)) typeError(path, out);
    if (enumValues) {
      const ok = primitiveEnum ? enumValues.includes(data) : enumValues.some((v) => deepEqual(data, v));
      if (!ok || (primitiveEnum && Number.isNaN(data))) {
        out.push({
          instancePath: path,
          keyword: 'enum',
          message: 'must be equal to one of the allowed values',
          params: { allowedValues: enumValues },
        });
      }
    }
    if (numberUsed) {
      if (typeof data === 'number') {
        for (const [limit, okStr, fails] of numberLimits) {
          if (fails(data, limit) || Number.isNaN(data)) {
            out.push({ instancePath: path, keyword: 'limit', message: `must be ${okStr} ${limit}`, params: {} });
          }
        }
        if (format && format[0] === 'number' && !format[1](data)) formatError(path, out);
      } else if (single === 'number') typeError(path, out);
    }
    if (stringUsed) {
      if (typeof data === 'string') {
        if (format && format[0] === 'string' && !format[1](data)) formatError(path, out);
      } else if (single === 'string') typeError(path, out);
    }
    if (arrayUsed) {
      if (Array.isArray(data)) {
        if (maxItems !== undefined && data.length > maxItems) {
          out.push({
            instancePath: path,
            keyword: 'maxItems',
            message: `must NOT have more than ${maxItems} items`,
            params: {},
          });
        }
        if (minItems !== undefined && data.length < minItems) {
          out.push({
            instancePath: path,
            keyword: 'minItems',
            message: `must NOT have fewer than ${minItems} items`,
            params: {},
          });
        }
        if (itemsCheck) for (let i = 0; i < data.length; i++) itemsCheck(data[i], `${path}/${i}`, out);
      } else if (single === 'array') typeError(path, out);
    }
    if (objectUsed) {
      if (isPlainObject(data)) {
        for (const p of required) {
          if (data[p] === undefined) {
            out.push({
              instancePath: path,
              keyword: 'required',
              message: `must have required property '${p}'`,
              params: { missingProperty: p },
            });
          }
        }
        if (additionalCheck !== undefined) {
          for (const key in data) {
            if (propNames.has(key)) continue;
            if (additionalCheck === 'forbidden') {
              out.push({
                instancePath: path,
                keyword: 'additionalProperties',
                message: 'must NOT have additional properties',
                params: { additionalProperty: key },
              });
            } else additionalCheck(data[key], `${path}/${escapePointer(key)}`, out);
          }
        }
        for (let i = 0; i < propKeys.length; i++) {
          const value = data[propKeys[i] as string];
          if (value !== undefined) (propChecks[i] as Check)(value, path + (propSuffixes[i] as string), out);
        }
      } else if (single === 'object') typeError(path, out);
    }
  };
}

/** ajv's alwaysValidSchema for a subset schema: no keyword besides annotations. */
function hasRules(s: unknown): boolean {
  return isPlainObject(s) && Object.keys(s).some((k) => !ANNOTATIONS.has(k));
}

function alwaysValid(props: Record<string, unknown>, name: string): boolean {
  return !hasRules(props[name]);
}
