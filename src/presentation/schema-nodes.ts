import type { JSONSchema } from '../contracts/json-schema.js';

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keywords whose value is one subschema. */
const ONE = ['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
/** Keywords whose value is a list of subschemas. */
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items'];
/** Keywords whose value maps names to subschemas (a property may itself be called `description`). */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/** How deep a schema is walked: a tool schema deeper than this is garbage, and a walk must end. */
const MAX_DEPTH = 64;

/**
 * A copy of a JSON Schema with `edit` applied to every schema node (the root, each property, item, branch and
 * definition), never to the names of properties: a parameter called `description` stays. Hand-written: the schema
 * walkers on npm validate or dereference, none rewrites the annotations of every node and nothing else.
 */
export function mapSchemaNodes(schema: JSONSchema, edit: (node: Node) => Node): JSONSchema {
  return walk(schema, edit, 0) as JSONSchema;
}

function walk(value: unknown, edit: (node: Node) => Node, depth: number): unknown {
  if (!isNode(value) || depth > MAX_DEPTH) return value;
  const out: Node = edit({ ...value });
  for (const k of ONE) if (isNode(out[k])) out[k] = walk(out[k], edit, depth + 1);
  for (const k of LIST) {
    const list = out[k];
    if (Array.isArray(list)) out[k] = list.map((s) => walk(s, edit, depth + 1));
  }
  for (const k of MAP) {
    const map = out[k];
    if (!isNode(map)) continue;
    const next: Node = {};
    for (const [name, s] of Object.entries(map)) next[name] = walk(s, edit, depth + 1);
    out[k] = next;
  }
  return out;
}

/**
 * The schema node of a parameter named by a dotted path (`options.bold`): through `properties`, and through the
 * `items` of an array parameter. Undefined when the schema has no such parameter.
 */
export function parameterNode(schema: JSONSchema, path: string): Node | undefined {
  let node: unknown = schema;
  for (const part of path.split('.')) {
    if (!isNode(node)) return undefined;
    let props = node.properties;
    if (!isNode(props) && isNode(node.items)) props = node.items.properties;
    if (!isNode(props) || !Object.hasOwn(props, part)) return undefined;
    node = props[part];
  }
  return isNode(node) ? node : undefined;
}

/** A copy of `schema` with the parameter at `path` given `description`; unchanged when there is no such parameter. */
export function withParameterDescription(schema: JSONSchema, path: string, description: string): JSONSchema {
  const parts = path.split('.');
  const set = (node: Node, i: number): Node => {
    const key = parts[i] as string;
    const out = { ...node };
    let holder: Node = out;
    if (!isNode(out.properties) && isNode(out.items)) {
      holder = { ...out.items };
      out.items = holder;
    }
    const props = holder.properties;
    if (!isNode(props) || !isNode(props[key])) return node;
    const nextProps = { ...props };
    const child = props[key] as Node;
    nextProps[key] = i === parts.length - 1 ? { ...child, description } : set(child, i + 1);
    holder.properties = nextProps;
    return out;
  };
  return set(schema, 0) as JSONSchema;
}
