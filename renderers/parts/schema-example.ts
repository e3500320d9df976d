import type { JSONSchema } from '../../src/contracts/json-schema.js';
import { asSchema, schemaList } from './schema-ref.js';
import {
  isObjectLike,
  MAX_DEPTH,
  propertiesOf,
  resolve,
  rootContext,
  typesOf,
  type WalkContext,
} from './schema-walk.js';

/**
 * Example arguments for a tool, built from its schema: every required parameter, filled with its default,
 * first example, first enum value, or a `<parameter_name>` placeholder for strings. Deterministic.
 */
export function exampleArguments(schema: JSONSchema): Record<string, unknown> {
  return exampleObject(schema, rootContext(schema));
}

function exampleObject(schema: JSONSchema, ctx: WalkContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const prop of propertiesOf(schema, ctx)) {
    if (prop.required) out[prop.name] = exampleValue(prop.schema, prop.name, ctx);
  }
  return out;
}

function exampleValue(schema: JSONSchema, name: string, ctx: WalkContext): unknown {
  const r = resolve(schema, ctx);
  const s = r.schema;
  if (r.cycle || r.ctx.depth > MAX_DEPTH) return null;
  if ('const' in s) return s.const;
  if ('default' in s) return s.default;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const member = [...schemaList(s.anyOf), ...schemaList(s.oneOf)].find((m) => !typesOf(m).includes('null'));
  if (member) return exampleValue(member, name, r.ctx);
  const types = typesOf(s).filter((t) => t !== 'null');
  const type = types[0] ?? (isObjectLike(s) ? 'object' : s.items !== undefined ? 'array' : 'string');
  switch (type) {
    case 'string':
      return `<${name}>`;
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'array': {
      const items = asSchema(s.items);
      return items ? [exampleValue(items, name, r.ctx)] : [];
    }
    case 'object':
      return exampleObject(s, r.ctx);
    default:
      return null;
  }
}
