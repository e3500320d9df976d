import { z } from 'zod';

/** The kinds of plugin a config can name by path, each with the export a module must provide. */
export type PluginKind = 'renderer' | 'provider' | 'grader' | 'reporter';

const fn = (signature: string) =>
  z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', { message: `a function ${signature}` });
const text = z.string({ message: 'a string' });

/** What each kind must look like at run time: the members of its contract in src/contracts/ the harness uses. */
export const pluginShapes = {
  renderer: z.looseObject({
    name: text,
    description: text.optional(),
    usesCache: z.boolean({ message: 'a boolean' }).optional(),
    prepare: fn('prepare(input)'),
  }),
  provider: z.looseObject({
    id: text,
    // Open: a built-in kind (openai, anthropic, ollama, openai-compatible, sim) or a name of the provider's own.
    kind: z.string({ message: 'a string (a built-in kind such as openai, or a name of its own)' }).min(1, {
      message: 'a non-empty string (a built-in kind such as openai, or a name of its own)',
    }),
    simulated: z.boolean({ message: 'a boolean' }),
    generate: fn('generate(request, signal?)'),
    close: fn('close()').optional(),
  }),
  grader: z.looseObject({
    name: text,
    description: text.optional(),
    grade: fn('grade(input)'),
    scope: z.enum(['turn', 'conversation'], { message: "'turn' or 'conversation'" }).optional(),
  }),
  reporter: z.looseObject({
    name: text.optional(),
    onRunStart: fn('onRunStart(run)').optional(),
    onCase: fn('onCase(record)').optional(),
    onRunEnd: fn('onRunEnd(run)').optional(),
  }),
} satisfies Record<PluginKind, z.ZodType>;

/** The required members of a kind, as the error for a value of the wrong type lists them. */
export function requiredMembers(kind: PluginKind): string[] {
  const shape = pluginShapes[kind].shape as Record<string, z.ZodType>;
  return Object.entries(shape)
    .filter(([, s]) => !s.safeParse(undefined).success)
    .map(([k]) => k);
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  const t = typeof v;
  return t === 'object' ? 'an object' : t === 'undefined' ? 'undefined' : `a ${t}`;
}

/**
 * Checks `value` against the kind's shape. Returns null when it fits, else what is wrong in one phrase naming the
 * member: "`grader` is a number, not a grader (needs name, grade)", "`grader` has no member `grade` (a function
 * grade(input))", "`grader.name` must be a string, got a number".
 */
export function shapeProblem(kind: PluginKind, exportName: string, value: unknown): string | null {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    return `\`${exportName}\` is ${typeName(value)}, not a ${kind} (needs ${requiredMembers(kind).join(', ')})`;
  }
  const parsed = pluginShapes[kind].safeParse(value);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  const member = String(issue?.path[0] ?? '');
  const got = (value as Record<string, unknown>)[member];
  if (!member) return `\`${exportName}\` is not a ${kind}: ${issue?.message}`;
  if (got === undefined) return `\`${exportName}\` has no member \`${member}\` (${issue?.message})`;
  return `\`${exportName}.${member}\` must be ${issue?.message}, got ${typeName(got)}`;
}
