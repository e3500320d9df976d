import type { JSONSchema } from '../../src/contracts/json-schema.js';
import { asSchema, refName, schemaList } from './schema-ref.js';
import {
  hasProperties,
  isObjectLike,
  literal,
  MAX_DEPTH,
  propertiesOf,
  resolve,
  rootContext,
  typesOf,
  type WalkContext,
} from './schema-walk.js';

/**
 * Human-readable type of a schema for the `full-details` prompt: `string`, `array<string>`,
 * `array<array<string | number>>`, `object`, `"left" | "right"`, `string | null`, `object<string, number>`.
 * Hand-written: no maintained library renders JSON Schema as prompt text, and the format is the experiment.
 */
export function describeType(schema: JSONSchema, ctx: WalkContext): string {
  const r = resolve(schema, ctx);
  if (r.cycle) return `${refName(r.cycle)} (recursive)`;
  const s = r.schema;
  if ('const' in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.map(literal).join(' | ');
  return baseType(s, r.ctx);
}

/** Like describeType but ignoring `enum`/`const` (the parameter line lists the values separately). */
export function baseType(s: JSONSchema, ctx: WalkContext): string {
  if (ctx.depth > MAX_DEPTH) return 'any';
  const union = [...schemaList(s.anyOf), ...schemaList(s.oneOf)];
  if (union.length > 0) return unique(union.map((m) => describeType(m, ctx))).join(' | ');
  const types = typesOf(s);
  if (types.length > 1) return unique(types.map((t) => baseType({ ...s, type: t }, ctx))).join(' | ');
  const type = types[0] ?? (isObjectLike(s) ? 'object' : s.items !== undefined ? 'array' : undefined);
  switch (type) {
    case 'array': {
      if (Array.isArray(s.prefixItems) || Array.isArray(s.items)) {
        const tuple = schemaList(Array.isArray(s.prefixItems) ? s.prefixItems : s.items);
        return `[${tuple.map((m) => describeType(m, ctx)).join(', ')}]`;
      }
      const items = asSchema(s.items);
      return items ? `array<${describeType(items, ctx)}>` : 'array';
    }
    case 'object': {
      const extra = asSchema(s.additionalProperties);
      if (!hasProperties(s, ctx) && extra) return `object<string, ${describeType(extra, ctx)}>`;
      return 'object';
    }
    case undefined:
      return 'any';
    default:
      return type;
  }
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

/** The object whose fields should be listed under a parameter: itself, or the items of (nested) arrays. */
function nestedObject(schema: JSONSchema, ctx: WalkContext): { schema: JSONSchema; ctx: WalkContext } | undefined {
  let r = resolve(schema, ctx);
  for (let i = 0; i < MAX_DEPTH && !r.cycle; i++) {
    if (hasProperties(r.schema, r.ctx)) return { schema: r.schema, ctx: r.ctx };
    const items = asSchema(r.schema.items);
    if (!items || !typesOf(r.schema).includes('array')) return undefined;
    r = resolve(items, r.ctx);
  }
  return undefined;
}

/**
 * One line per parameter, nested object fields indented below their parent:
 * `- start_cell (string, optional, default: "A1"): Starting cell`.
 */
export function parameterLines(schema: JSONSchema, ctx: WalkContext = rootContext(schema), indent = ''): string[] {
  const lines: string[] = [];
  for (const prop of propertiesOf(schema, ctx)) {
    const r = resolve(prop.schema, ctx);
    const s = r.schema;
    const facts = [r.cycle ? `${refName(r.cycle)} (recursive)` : baseType(s, r.ctx)];
    facts.push(prop.required ? 'required' : 'optional');
    if ('const' in s) facts.push(`always ${literal(s.const)}`);
    if (Array.isArray(s.enum)) facts.push(`one of: ${s.enum.map(literal).join(', ')}`);
    if ('default' in s) facts.push(`default: ${literal(s.default)}`);
    if (typeof s.format === 'string') facts.push(`format: ${s.format}`);
    const desc =
      typeof s.description === 'string' && s.description.trim() ? `: ${oneBlock(s.description, indent)}` : '';
    lines.push(`${indent}- ${prop.name} (${facts.join(', ')})${desc}`);
    if (!r.cycle && ctx.depth < MAX_DEPTH) {
      const nested = nestedObject(prop.schema, ctx);
      if (nested) lines.push(...parameterLines(nested.schema, nested.ctx, `${indent}  `));
    }
  }
  return lines;
}

/** Multi-line text kept readable inside an indented list. */
function oneBlock(text: string, indent: string): string {
  return text.trim().replace(/\r?\n/g, `\n${indent}  `);
}

/**
 * Compact TypeScript-like type for signatures (`cached-schemas`): `string`, `string[]`, `{bold?: boolean}`,
 * `"left" | "right"`, `Record<string, number>`.
 */
export function compactType(schema: JSONSchema, ctx: WalkContext): string {
  const r = resolve(schema, ctx);
  if (r.cycle) return refName(r.cycle);
  const s = r.schema;
  const c = r.ctx;
  if ('const' in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.map(literal).join(' | ');
  if (c.depth > MAX_DEPTH) return 'any';
  const union = [...schemaList(s.anyOf), ...schemaList(s.oneOf)];
  if (union.length > 0) return unique(union.map((m) => compactType(m, c))).join(' | ');
  const types = typesOf(s);
  if (types.length > 1) return unique(types.map((t) => compactType({ ...s, type: t }, ctx))).join(' | ');
  const type = types[0] ?? (isObjectLike(s) ? 'object' : s.items !== undefined ? 'array' : undefined);
  switch (type) {
    case 'array': {
      if (Array.isArray(s.prefixItems) || Array.isArray(s.items)) {
        const tuple = schemaList(Array.isArray(s.prefixItems) ? s.prefixItems : s.items);
        return `[${tuple.map((m) => compactType(m, c)).join(', ')}]`;
      }
      const items = asSchema(s.items);
      if (!items) return 'any[]';
      const inner = compactType(items, c);
      return topLevelUnion(inner) ? `(${inner})[]` : `${inner}[]`;
    }
    case 'object': {
      const props = propertiesOf(s, c);
      if (props.length > 0) {
        return `{${props.map((p) => `${p.name}${p.required ? '' : '?'}: ${compactType(p.schema, c)}`).join(', ')}}`;
      }
      const extra = asSchema(s.additionalProperties);
      return extra ? `Record<string, ${compactType(extra, c)}>` : 'object';
    }
    case undefined:
      return 'any';
    default:
      return type;
  }
}

/** Whether ` | ` occurs outside any brackets, i.e. the type needs parentheses before `[]`. */
function topLevelUnion(type: string): boolean {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < type.length; i++) {
    const ch = type[i];
    if (ch === '"' && type[i - 1] !== '\\') quoted = !quoted;
    if (quoted) continue;
    if (ch === '(' || ch === '[' || ch === '{' || ch === '<') depth++;
    else if (ch === ')' || ch === ']' || ch === '}' || ch === '>') depth--;
    else if (depth === 0 && type.startsWith(' | ', i)) return true;
  }
  return false;
}

/** `read_data_from_excel(filepath: string, sheet_name: string, start_cell?: string = "A1")`. */
export function signature(name: string, schema: JSONSchema): string {
  const ctx = rootContext(schema);
  const params = propertiesOf(schema, ctx).map((p) => {
    const r = resolve(p.schema, ctx);
    const dflt = !r.cycle && 'default' in r.schema ? ` = ${literal(r.schema.default)}` : '';
    return `${p.name}${p.required ? '' : '?'}: ${compactType(p.schema, ctx)}${dflt}`;
  });
  return `${name}(${params.join(', ')})`;
}
