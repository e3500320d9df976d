import type { ToolDef } from '../contracts/tool.js';
import { canonicalJson } from '../util/canonical-json.js';

type Schema = Record<string, unknown>;

const asSchema = (v: unknown): Schema =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Schema) : {};
const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);
const show = (v: unknown) => {
  const text = typeof v === 'string' ? JSON.stringify(v) : canonicalJson(v ?? null);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};

/** The type a schema declares, as a reader writes it: `string`, `integer | null`, `array of string`, `object`. */
function typeOf(s: Schema): string {
  const t = Array.isArray(s.type) ? s.type.join(' | ') : typeof s.type === 'string' ? s.type : undefined;
  if (t === 'array' && s.items && typeof asSchema(s.items).type === 'string')
    return `array of ${asSchema(s.items).type}`;
  if (t) return t;
  for (const k of ['anyOf', 'oneOf'] as const) if (Array.isArray(s[k])) return `${k}(${(s[k] as unknown[]).length})`;
  if (s.$ref) return String(s.$ref);
  return 'any';
}

/** The keywords compared one by one; every other keyword of a parameter is compared as a whole. */
const NAMED = new Set(['type', 'items', 'enum', 'description', 'default', 'properties', 'required', 'title']);

/**
 * What changed in one parameter (its `path`, e.g. `options.mode` or `rows[]`) between two schemas: type, enum values
 * added and removed, description, default, other constraints; nested object properties and array items in turn.
 */
function paramChanges(path: string, before: Schema, after: Schema, out: string[]): void {
  const tb = typeOf(before);
  const ta = typeOf(after);
  if (tb !== ta) out.push(`parameter ${path}: type ${tb} → ${ta}`);
  const eb = Array.isArray(before.enum) ? before.enum : undefined;
  const ea = Array.isArray(after.enum) ? after.enum : undefined;
  if (eb || ea) {
    const added = (ea ?? []).filter((v) => !(eb ?? []).some((w) => same(v, w)));
    const removed = (eb ?? []).filter((v) => !(ea ?? []).some((w) => same(v, w)));
    if (!eb) out.push(`parameter ${path}: enum added (${ea!.map(show).join(', ')})`);
    else if (!ea) out.push(`parameter ${path}: enum removed (any value now)`);
    else if (added.length || removed.length) {
      const parts = [
        added.length ? `added ${added.map(show).join(', ')}` : '',
        removed.length ? `removed ${removed.map(show).join(', ')}` : '',
      ].filter(Boolean);
      out.push(`parameter ${path}: enum ${parts.join('; ')}`);
    }
  }
  if (!same(before.description, after.description)) out.push(`parameter ${path}: description changed`);
  if (!same(before.default, after.default)) {
    out.push(`parameter ${path}: default ${show(before.default)} → ${show(after.default)}`);
  }
  const other = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => !NAMED.has(k) && !same(before[k], after[k]))
    .sort();
  if (other.length) out.push(`parameter ${path}: ${other.join(', ')} changed`);
  if (before.properties || after.properties) objectChanges(`${path}.`, before, after, out);
  if (before.items && after.items && tb === ta)
    paramChanges(`${path}[]`, asSchema(before.items), asSchema(after.items), out);
}

/** Properties added, removed, made required or optional, and changed, of an object schema (`prefix` names its path). */
function objectChanges(prefix: string, before: Schema, after: Schema, out: string[]): void {
  const pb = asSchema(before.properties);
  const pa = asSchema(after.properties);
  const rb = new Set(Array.isArray(before.required) ? (before.required as string[]) : []);
  const ra = new Set(Array.isArray(after.required) ? (after.required as string[]) : []);
  const names = [...new Set([...Object.keys(pb), ...Object.keys(pa)])].sort();
  for (const name of names) {
    const path = `${prefix}${name}`;
    if (!(name in pb)) {
      out.push(`parameter added: ${path} (${typeOf(asSchema(pa[name]))}, ${ra.has(name) ? 'required' : 'optional'})`);
      continue;
    }
    if (!(name in pa)) {
      out.push(`parameter removed: ${path}`);
      continue;
    }
    if (rb.has(name) !== ra.has(name)) {
      out.push(`parameter ${path}: ${ra.has(name) ? 'now required' : 'no longer required'}`);
    }
    paramChanges(path, asSchema(pb[name]), asSchema(pa[name]), out);
  }
}

/**
 * What changed in a tool between the schema cache and the live server, one line each: title, description,
 * parameters added or removed, a parameter's type, enum, description, default or constraints, required-ness,
 * annotations, and any other change of the input schema.
 */
export function toolChanges(before: ToolDef, after: ToolDef): string[] {
  const out: string[] = [];
  if (!same(before.title, after.title)) out.push(`title ${show(before.title)} → ${show(after.title)}`);
  if (!same(before.description, after.description)) {
    out.push(`description changed: ${show(before.description)} → ${show(after.description)}`);
  }
  const sb = asSchema(before.inputSchema);
  const sa = asSchema(after.inputSchema);
  objectChanges('', sb, sa, out);
  const other = [...new Set([...Object.keys(sb), ...Object.keys(sa)])]
    .filter((k) => k !== 'properties' && k !== 'required' && !same(sb[k], sa[k]))
    .sort();
  if (other.length) out.push(`input schema: ${other.join(', ')} changed`);
  if (!same(before.annotations, after.annotations)) out.push('annotations changed');
  // anything else a tool definition carries (a field this list does not name): still a change, said as one
  if (out.length === 0 && !same(before, after)) out.push('definition changed');
  return out;
}
