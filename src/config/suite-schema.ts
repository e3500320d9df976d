import { z } from 'zod';
import { SEGMENT_HINT, segmentProblem } from '../util/path-segment.js';

/** Where a suite's tools come from. Bundled servers run in-process; others are spawned or dialled. */
export const ServerSpecSchema = z.union([
  z
    .object({ builtin: z.string().min(1).describe('Name of a bundled mock MCP server (excel, economist, coder, …)') })
    .strict(),
  z
    .object({
      command: z.array(z.string()).min(1).describe('Executable and arguments of a stdio MCP server'),
      env: z.record(z.string(), z.string()).optional(),
      cwd: z.string().optional(),
      isolate: z.boolean().optional().describe('Start a fresh server process for every case'),
    })
    .strict(),
  z
    .object({
      url: z.string().url().describe('Streamable HTTP endpoint, e.g. http://127.0.0.1:8123/mcp'),
      headers: z.record(z.string(), z.string()).optional(),
    })
    .strict(),
]);
export type ServerSpec = z.infer<typeof ServerSpecSchema>;

export const InlineToolSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    inputSchema: z.record(z.string(), z.unknown()),
  })
  .strict();

export const ToolFilterSchema = z
  .object({
    include: z.array(z.string()).optional().describe('Glob patterns of tool names (or server/tool) to keep'),
    exclude: z.array(z.string()).optional().describe('Glob patterns of tool names (or server/tool) to drop'),
  })
  .strict();
export type ToolFilter = z.infer<typeof ToolFilterSchema>;

/**
 * One expected call. `args` follows BFCL's rules: each parameter maps to a list of allowed values; a list
 * containing "" means the parameter may be omitted; a parameter not listed must not be sent. Parameters
 * named in `free` (free text: a diff, a question) are checked against the tool's JSON Schema only; with no
 * `args` at all, every parameter is free. `example` gives concrete values for free parameters, used by the
 * simulated oracle and shown to readers.
 * Checked against the tools (src/config/check-expectations.ts): `tool` must name a tool the case offers (after the
 * tool filters), and every parameter named in `args`, `free` or `example` must be one the tool's input schema lists
 * in `properties`, unless that schema lists none or explicitly admits others (`additionalProperties` true or a
 * schema, or `patternProperties`): a listed set is taken as the tool's parameters even where JSON Schema would admit
 * more. Inline tools are checked when the suite loads, servers' tools before a run calls a model.
 */
export const ExpectedCallSchema = z
  .object({
    tool: z.string().min(1),
    args: z.record(z.string(), z.array(z.unknown())).optional(),
    free: z.array(z.string()).optional(),
    example: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type ExpectedCall = z.infer<typeof ExpectedCallSchema>;

export const ExpectSchema = z
  .object({
    calls: z.array(ExpectedCallSchema).optional(),
    /** `parallel`: calls may come in any order (one or more turns); `sequence`: in this order across turns. */
    order: z.enum(['parallel', 'sequence']).optional(),
    no_call: z.boolean().optional(),
    answer_mentions: z.array(z.string()).optional(),
  })
  .strict()
  .refine((e) => e.no_call || (e.calls && e.calls.length > 0), {
    message: 'expect needs `calls: [...]` or `no_call: true`',
  });
export type Expect = z.infer<typeof ExpectSchema>;

export const CaseSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .regex(/^[\w.:-]+$/, 'use letters, digits, _ . : -'),
    prompt: z.string().min(1, 'prompt must not be empty'),
    system: z.string().optional().describe('Extra system instructions prepended to the rendered tool section'),
    tags: z.array(z.string()).optional(),
    tools: ToolFilterSchema.optional(),
    /**
     * Inline tools of this case only (BFCL gives every question its own functions): when present, the case's
     * catalog is these tools (plus the suite's servers), replacing the suite-level inline `tools`.
     */
    functions: z.array(InlineToolSchema).min(1).optional(),
    expect: ExpectSchema,
    /** Canned results for inline tools (no server): tool name → result text or JSON. */
    results: z.record(z.string(), z.unknown()).optional(),
    maxTurns: z.number().int().min(1).max(50).optional(),
  })
  .strict();
export type SuiteCase = z.infer<typeof CaseSchema>;

/**
 * A suite's name names its schema cache file (`schemas/<name>.json`) and begins every case key (`name/case|…`), so it
 * must be one safe file name: a name such as `../../x` is refused when the suite loads (exit 2, naming the file and
 * the field) rather than encoded, so the cache file keeps the name its author wrote.
 */
const SuiteNameSchema = z
  .string()
  .min(1)
  .superRefine((name, ctx) => {
    const problem = segmentProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: `the suite's name ${problem}; ${SEGMENT_HINT}` });
  });

export const SuiteSchema = z
  .object({
    name: SuiteNameSchema,
    description: z.string().optional(),
    servers: z.record(z.string(), ServerSpecSchema).optional(),
    tools: z.array(InlineToolSchema).optional(),
    toolFilter: ToolFilterSchema.optional(),
    cases: z.array(CaseSchema).min(1, 'a suite needs at least one case'),
  })
  .strict()
  .refine(
    (s) =>
      (s.servers && Object.keys(s.servers).length > 0) ||
      (s.tools && s.tools.length > 0) ||
      s.cases.every((c) => c.functions && c.functions.length > 0),
    { message: 'a suite needs `servers:`, inline `tools:`, or `functions:` in every case' },
  );
export type Suite = z.infer<typeof SuiteSchema>;
