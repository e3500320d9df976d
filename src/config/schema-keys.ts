import type { z } from 'zod';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schemas a value may have to satisfy, wrappers (optional, default, pipe, lazy) taken off and unions spread. */
function unwrap(schema: z.ZodType, depth = 0): z.ZodType[] {
  if (depth > 20) return [];
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return def.innerType ? unwrap(def.innerType, depth + 1) : [];
    case 'pipe':
      return def.in ? unwrap(def.in, depth + 1) : [];
    case 'lazy':
      return def.getter ? unwrap(def.getter(), depth + 1) : [];
    case 'union':
      return (def.options ?? []).flatMap((o) => unwrap(o, depth + 1));
    case 'intersection':
      return [def.left, def.right].flatMap((s) => (s ? unwrap(s, depth + 1) : []));
    default:
      return [schema];
  }
}

/** The schemas at a data path (a key of an object, an index of an array, any key of a record). */
function schemasAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType[] {
  let current = unwrap(schema);
  for (const key of path) {
    const next: z.ZodType[] = [];
    for (const s of current) {
      const def = defOf(s);
      if (def.type === 'object' && typeof key === 'string' && def.shape?.[key]) next.push(def.shape[key]);
      else if (def.type === 'array' && typeof key === 'number' && def.element) next.push(def.element);
      else if (def.type === 'record' && def.valueType) next.push(def.valueType);
    }
    current = next.flatMap((s) => unwrap(s));
  }
  return current;
}

/**
 * The keys the schema admits for the object at `path` of the data (for an unknown key's "did you mean"): the shape's
 * keys of every object schema that may be there (a union's options alike), in the schema's order; [] when none.
 */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const keys = new Set<string>();
  for (const s of schemasAt(schema, path)) {
    const def = defOf(s);
    if (def.type === 'object') for (const k of Object.keys(def.shape ?? {})) keys.add(k);
  }
  return [...keys];
}
