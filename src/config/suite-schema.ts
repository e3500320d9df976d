import { z } from 'zod';
import type {
  Expect,
  ExpectedCall,
  InlineTool,
  ServerSpec,
  StateFact,
  Suite,
  SuiteCase,
  ToolFilter,
  TurnExpect,
  UserTurn,
} from '../contracts/suite.js';
import { SEGMENT_HINT, segmentProblem } from '../util/path-segment.js';
import type { Agrees, SameType } from '../util/same-type.js';

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

/** The `server` of an inline tool (declared in the suite, or a case's `functions`): it has no server. */
export const INLINE_SERVER = 'inline';

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

/**
 * One expected call. `args` follows BFCL's rules: each parameter maps to a list of allowed values; a list
 * containing "" means the parameter may be omitted; a parameter not listed must not be sent. Parameters
 * named in `free` (free text: a diff, a question) are checked against the tool's JSON Schema only; with no
 * `args` at all, every parameter is free. `example` gives concrete values for free parameters, used by the
 * simulated oracle and shown to readers.
 * Checked against the tools (src/config/check-expectations.ts; src/runner/preflight.ts for servers): `tool` must name a tool the case offers (after the
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

/** A key in a state view or a probe's JSON result: an object's property, or an array's index. */
const PathSchema = z
  .array(z.union([z.string(), z.number().int().min(0)]))
  .describe('Keys into the state view (or the probe result), e.g. [parameters, income_tax_rate]');

/**
 * One fact about the state the tools leave behind, checked after the conversation (the `final-state` grader). Where
 * the value is read: a bundled server's state view (`server` + `path`), or the result of a read-only tool the suite
 * names (`probe`, then `path` into its JSON). How it is matched: `equals` (the same JSON value), `subset` (every key
 * and element given is there; a string is contained in the value), or `absent: true` (nothing at the path);
 * `tolerance` lets numbers differ by at most that much. The matching rules are in docs/multi-turn.md.
 */
export const StateFactSchema = z
  .object({
    server: z
      .string()
      .min(1)
      .optional()
      .describe("The suite's server whose state view holds the value (default: the suite's only server)"),
    probe: z
      .object({
        tool: z.string().min(1).describe('A read-only tool of the server, called after the conversation'),
        args: z.record(z.string(), z.unknown()).optional(),
        server: z.string().min(1).optional(),
      })
      .strict()
      .optional()
      .describe("Read the value by calling a tool (a user's server has no state view)"),
    path: PathSchema.optional(),
    equals: z.unknown().optional(),
    subset: z.unknown().optional(),
    absent: z.literal(true).optional(),
    tolerance: z.number().min(0).optional().describe('Numbers match when they differ by at most this much'),
  })
  .strict()
  .superRefine((fact, ctx) => {
    const matchers = (['equals', 'subset', 'absent'] as const).filter((k) => Object.hasOwn(fact, k));
    if (matchers.length !== 1)
      ctx.addIssue({
        code: 'custom',
        message: `a state fact needs exactly one of equals, subset or absent (found ${matchers.length ? matchers.join(', ') : 'none'})`,
      });
    if (fact.probe && fact.server !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['server'],
        message: 'a probe names its server inside probe: (probe.server)',
      });
    if (fact.tolerance !== undefined && fact.absent)
      ctx.addIssue({ code: 'custom', path: ['tolerance'], message: 'tolerance applies to equals or subset only' });
    if (!fact.probe && (fact.path === undefined || fact.path.length === 0))
      ctx.addIssue({ code: 'custom', path: ['path'], message: 'a fact read from a state view needs a path into it' });
  });

const expectFields = {
  calls: z.array(ExpectedCallSchema).optional(),
  /** `parallel`: calls may come in any order (one or more turns); `sequence`: in this order across turns. */
  order: z.enum(['parallel', 'sequence']).optional(),
  no_call: z.boolean().optional(),
  answer_mentions: z.array(z.string()).optional(),
  /**
   * Other valid paths to the same result, each a list of calls. Never graded (the call-list graders hold the model
   * to `calls`; `final-state` accepts any path): `sim:detour` takes the first, and readers see what else is right.
   */
  alternatives: z.array(z.array(ExpectedCallSchema).min(1)).optional(),
};

const judgesCalls = (e: { no_call?: boolean | undefined; calls?: unknown[] | undefined }) =>
  e.no_call === true || (e.calls !== undefined && e.calls.length > 0);

/** What one user turn expects of the agent's answer to it. */
export const TurnExpectSchema = z
  .object(expectFields)
  .strict()
  .refine(judgesCalls, { message: 'expect needs `calls: [...]` or `no_call: true`' });

export const ExpectSchema = z
  .object({
    ...expectFields,
    /** Facts about the servers' state after the conversation (the `final-state` grader). */
    state: z.array(StateFactSchema).min(1).optional(),
  })
  .strict();

/** One user message of a scripted conversation, sent after the agent answered the previous one. */
export const UserTurnSchema = z
  .object({
    prompt: z.string().min(1, 'prompt must not be empty'),
    expect: TurnExpectSchema.optional(),
    maxTurns: z
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .describe("Model turns allowed to answer this message (default: the case's maxTurns)"),
  })
  .strict();

const CaseFieldsSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .regex(/^[\w.:-]+$/, 'use letters, digits, _ . : -'),
    /** The user's message; a conversation of several messages writes `turns` instead. */
    prompt: z.string().min(1, 'prompt must not be empty').optional(),
    /** A scripted conversation: user messages in order, each sent after the agent answered the one before. */
    turns: z.array(UserTurnSchema).min(1).optional(),
    system: z.string().optional().describe('Extra system instructions prepended to the rendered tool section'),
    tags: z.array(z.string()).optional(),
    tools: ToolFilterSchema.optional(),
    /**
     * Inline tools of this case only (BFCL gives every question its own functions): when present, the case's
     * catalog is these tools (plus the suite's servers), replacing the suite-level inline `tools`.
     */
    functions: z.array(InlineToolSchema).min(1).optional(),
    /** With `turns`: only `state` (each turn holds its own calls). Without: what the one answer must do. */
    expect: ExpectSchema.optional(),
    /** Canned results for inline tools (no server): tool name → result text or JSON. */
    results: z.record(z.string(), z.unknown()).optional(),
    /** Model turns allowed per user message (default: the run's maxTurns). */
    maxTurns: z.number().int().min(1).max(50).optional(),
    /** Model turns allowed over the whole conversation (default: no bound but each message's). */
    maxTotalTurns: z.number().int().min(1).max(500).optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.turns === undefined) {
      if (c.prompt === undefined)
        ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'a case needs `prompt` (or `turns`)' });
      if (c.expect === undefined) ctx.addIssue({ code: 'custom', path: ['expect'], message: 'a case needs `expect`' });
      else if (!judgesCalls(c.expect) && c.expect.state === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['expect'],
          message: 'expect needs `calls: [...]`, `no_call: true` or `state: [...]`',
        });
      return;
    }
    if (c.prompt !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['prompt'],
        message: 'a case with `turns` writes its first message as the first turn, not as `prompt`',
      });
    for (const key of Object.keys(c.expect ?? {})) {
      if (key === 'state') continue;
      ctx.addIssue({
        code: 'custom',
        path: ['expect', key],
        message: `in a case with \`turns\`, ${key} goes in the expect of the turn it applies to; the case's expect holds only \`state\``,
      });
    }
    if (c.expect?.state === undefined && !c.turns.some((t) => t.expect !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['turns'],
        message: 'a conversation needs something to judge: an `expect` in a turn, or `expect: { state: [...] }`',
      });
  });

/**
 * A case as the run reads it: a conversation's first message is also its `prompt` (what renderers put in the first
 * request), and its `expect` holds the state facts only (`{}` when it has none).
 */
export const CaseSchema = CaseFieldsSchema.transform((c): typeof c & { prompt: string; expect: Expect } => {
  // a one-message case is its own value (its fields keep their order); the refinement made sure of both fields
  if (c.turns === undefined) return c as typeof c & { prompt: string; expect: Expect };
  return { ...c, prompt: c.turns[0]?.prompt ?? '', expect: c.expect ?? {} };
});

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

/* The suite's types are the contract's (src/contracts/suite.ts); these schemas read exactly them. */
export type { Expect, ExpectedCall, ServerSpec, StateFact, Suite, SuiteCase, ToolFilter, UserTurn };
export type SuiteSchemasAgree = [
  Agrees<SameType<z.infer<typeof ServerSpecSchema>, ServerSpec>>,
  Agrees<SameType<z.infer<typeof InlineToolSchema>, InlineTool>>,
  Agrees<SameType<z.infer<typeof ToolFilterSchema>, ToolFilter>>,
  Agrees<SameType<z.infer<typeof ExpectedCallSchema>, ExpectedCall>>,
  Agrees<SameType<z.infer<typeof StateFactSchema>, StateFact>>,
  Agrees<SameType<z.infer<typeof TurnExpectSchema>, TurnExpect>>,
  Agrees<SameType<z.infer<typeof ExpectSchema>, Expect>>,
  Agrees<SameType<z.infer<typeof UserTurnSchema>, UserTurn>>,
  Agrees<SameType<z.infer<typeof CaseSchema>, SuiteCase>>,
  Agrees<SameType<z.infer<typeof SuiteSchema>, Suite>>,
];
