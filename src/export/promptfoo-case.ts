import { z } from 'zod';
import { providerResponder } from '../../mock-servers/llm/responders.js';
import { startLlmMock } from '../../mock-servers/llm/server.js';
import type { LlmMockHandle } from '../../mock-servers/llm/types.js';
import { providerFactories } from '../../providers/provider-factories.js';
import { ServerPool } from '../catalog/server-pool.js';
import { ProviderEntrySchema, RendererEntrySchema } from '../config/config-schema.js';
import { casesOf } from '../config/suite-cases.js';
import {
  CaseSchema,
  InlineToolSchema,
  ServerSpecSchema,
  SuiteSchema,
  ToolFilterSchema,
} from '../config/suite-schema.js';
import type { ModelRequest, Oracle } from '../contracts/model.js';
import type { Provider } from '../contracts/provider.js';
import type { PrepareInput, RenderedRequest } from '../contracts/renderer.js';
import type { SuiteCase } from '../contracts/suite.js';
import type { ToolDef } from '../contracts/tool.js';
import { ToolgaugeError } from '../errors.js';
import { type ProviderSlot, resolveProviders, resolveStrategies, type Strategy } from '../plugins/index.js';
import { RunContext } from '../render/run-context.js';
import type { CaseRecord } from '../run-log/schema.js';
import { planKey } from '../runner/plan.js';
import { runCase } from '../runner/run-case.js';
import { sha256 } from '../util/canonical-json.js';

/** The `config:` of the promptfoo provider `file://…/toolgauge-provider.mjs`. */
export const PromptfooProviderConfigSchema = z
  .object({
    renderer: RendererEntrySchema.default('full-details'),
    provider: ProviderEntrySchema.default('sim:oracle'),
    servers: z.record(z.string(), ServerSpecSchema).optional(),
    tools: z.array(InlineToolSchema).optional(),
    toolFilter: ToolFilterSchema.optional(),
    suite: z.string().min(1).default('promptfoo').describe('Suite name used in case keys'),
    maxTurns: z.number().int().min(1).max(50).default(6),
    seed: z.number().int().default(1),
    turnMs: z.number().int().positive().default(60_000),
    toolMs: z.number().int().positive().default(30_000),
    serverStartMs: z.number().int().positive().default(30_000),
    caseMs: z.number().int().positive().default(300_000),
    /**
     * Offline rehearsal: the model is the LLM wire mock on loopback, answered by this simulated persona with the
     * test's `expect` as its oracle; the configured provider (openai:…, anthropic:…, ollama:…) talks to it
     * through its real SDK client.
     */
    llmMock: z
      .object({ persona: z.string().min(1) })
      .strict()
      .optional(),
  })
  .strict();
export type PromptfooProviderConfig = z.input<typeof PromptfooProviderConfigSchema>;
type ParsedConfig = z.output<typeof PromptfooProviderConfigSchema>;

/** Everything a toolgauge grader needs; the assertion modules read it from `metadata.toolgauge`. */
export interface PromptfooGradeContext {
  key: string;
  case: SuiteCase;
  protocol: CaseRecord['protocol'];
  /** The tools the model was shown. */
  tools: ToolDef[];
  transcript: CaseRecord['transcript'];
  renderer: string;
  provider: string;
  simulated: boolean;
  error?: CaseRecord['error'];
}

/** What the provider returns to promptfoo (its ProviderResponse shape). */
export interface PromptfooProviderResponse {
  output: string;
  error?: string;
  tokenUsage: { prompt: number; completion: number; total: number; cached: number };
  metadata: {
    /** Executed tool calls, in the shape promptfoo's MCP providers use for `metadata.toolCalls`. */
    toolCalls: { id: string; name: string; input: unknown; output: string; is_error: boolean }[];
    toolgauge: PromptfooGradeContext;
  };
}

const MOCK_KEY = 'toolgauge-llm-mock';

/**
 * Runs promptfoo tests through toolgauge: renderer → provider → agent loop against the MCP servers. One runner per
 * promptfoo provider instance; built-in servers are fresh per test, user servers are shared until `close`.
 */
export class PromptfooCaseRunner {
  private readonly config: ParsedConfig;
  private readonly pool = new ServerPool();
  /** What the tests run by this provider share: catalogs, prepared renderers, token counts. */
  private readonly context = new RunContext();
  private strategy: Promise<Strategy> | undefined;
  private slot: Promise<ProviderSlot> | undefined;

  constructor(
    rawConfig: unknown,
    private readonly baseDir: string,
  ) {
    const parsed = PromptfooProviderConfigSchema.safeParse(rawConfig ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ToolgaugeError(
        'CONFIG_INVALID',
        `toolgauge promptfoo provider config${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'invalid'}`,
      );
    }
    this.config = parsed.data;
  }

  get label(): string {
    const r = this.config.renderer;
    const p = this.config.provider;
    const mock = this.config.llmMock ? `@llm-mock(${this.config.llmMock.persona})` : '';
    return `toolgauge:${typeof r === 'string' ? r : (r.label ?? r.name)}|${typeof p === 'string' ? p : (p.label ?? p.id)}${mock}`;
  }

  /** Runs one promptfoo test: `prompt` is the rendered user prompt, `vars` the test's vars (`expect`, `results`…). */
  async run(prompt: string, vars: Record<string, unknown> = {}): Promise<PromptfooProviderResponse> {
    const testCase = caseFromVars(prompt, vars);
    const { cases, ...suite } = SuiteSchema.parse({
      name: this.config.suite,
      ...(this.config.servers ? { servers: this.config.servers } : {}),
      ...(this.config.tools ? { tools: this.config.tools } : {}),
      ...(this.config.toolFilter ? { toolFilter: this.config.toolFilter } : {}),
      cases: [testCase],
    });
    const loaded = { file: `${this.baseDir}/promptfooconfig.yaml`, suite, cases: casesOf(cases) };
    if (!this.strategy) {
      this.strategy = resolveStrategies([this.config.renderer], this.baseDir, () => 'renderer').then(
        (s) => s[0] as Strategy,
      );
    }
    const strategy = await this.strategy;
    let shown: PrepareInput['catalog'] | undefined;
    let rendered: RenderedRequest | undefined;
    const capturing: Strategy = {
      ...strategy,
      renderer: {
        ...strategy.renderer,
        prepare: (input) => {
          shown = input.catalog;
          const prepared = strategy.renderer.prepare(input);
          return {
            // (a tool-search renderer's `expand` too: the runner shows the tools a search found with it)
            ...prepared,
            render: (c) => {
              rendered = prepared.render(c);
              return rendered;
            },
          };
        },
      },
    };
    let mock: LlmMockHandle | undefined;
    try {
      let slot: ProviderSlot;
      if (this.config.llmMock) {
        const sim = simulatedPersona(this.config.llmMock.persona);
        const oracle = oracleOf(testCase);
        const meta = {
          caseId: `${suite.name}/${testCase.id}`,
          repeat: 0,
          seed: this.config.seed,
          renderer: strategy.label,
        };
        const responder = providerResponder({
          ...sim,
          generate: (req: ModelRequest, signal?: AbortSignal) =>
            sim.generate(
              { ...req, protocol: rendered?.protocol ?? req.protocol, meta: { ...meta, turn: req.meta.turn } },
              signal,
              oracle,
            ),
        });
        mock = await startLlmMock({ responder });
        slot = this.mockedProvider(mock.url);
      } else {
        if (!this.slot)
          this.slot = resolveProviders([this.config.provider], this.baseDir, () => 'provider').then(
            (s) => s[0] as ProviderSlot,
          );
        slot = await this.slot;
      }
      const item = {
        key: planKey(suite.name, testCase.id, strategy.label, slot.label, 0),
        suite: loaded,
        case: testCase,
        strategy: capturing,
        provider: slot,
        repeat: 0,
      };
      const settings = {
        seed: this.config.seed,
        maxTurns: this.config.maxTurns,
        turnMs: this.config.turnMs,
        caseMs: this.config.caseMs,
        toolMs: this.config.toolMs,
        serverStartMs: this.config.serverStartMs,
        graders: [],
        schemaDir: this.baseDir,
        context: this.context,
      };
      const record = await runCase(item, this.pool, settings, new AbortController().signal);
      return toResponse(record, testCase, shown?.tools ?? []);
    } finally {
      await mock?.close();
    }
  }

  private mockedProvider(url: string): ProviderSlot {
    const entry = this.config.provider;
    const { id, options = {}, label } = typeof entry === 'string' ? { id: entry } : entry;
    const colon = id.indexOf(':');
    const prefix = id.slice(0, colon) as keyof typeof providerFactories;
    const factory = providerFactories[prefix];
    if (colon < 0 || !factory || prefix === 'sim')
      throw new ToolgaugeError(
        'CONFIG_INVALID',
        `toolgauge promptfoo provider config.provider: llmMock needs a wire provider (openai:, anthropic:, ollama:, openai-compatible:), got '${id}'`,
      );
    const baseURL = prefix === 'openai' || prefix === 'openai-compatible' ? `${url}/v1` : url;
    const env = { ...process.env, OPENAI_API_KEY: MOCK_KEY, ANTHROPIC_API_KEY: MOCK_KEY };
    const provider = factory.create(id.slice(colon + 1), { ...options, baseURL }, { env });
    return { label: label ?? id, id, options, provider };
  }

  async close(): Promise<void> {
    await this.pool.closeAll();
    const slot = await this.slot?.catch(() => undefined);
    await slot?.provider.close?.();
  }
}

function simulatedPersona(persona: string): Provider {
  return providerFactories.sim.create(persona, {}, { env: {} });
}

function oracleOf(c: SuiteCase): Oracle {
  return {
    calls: c.expect.calls ?? [],
    noCall: c.expect.no_call === true,
    answerMentions: c.expect.answer_mentions ?? [],
    ...(c.expect.order ? { order: c.expect.order } : {}),
  };
}

/** promptfoo vars → a toolgauge case: `expect` (object or JSON text), optional `id`, `results`, `system`. */
export function caseFromVars(prompt: string, vars: Record<string, unknown>): SuiteCase {
  const json = (name: string) => {
    const v = vars[name];
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      throw new ToolgaugeError('CONFIG_INVALID', `promptfoo test vars.${name}: not valid JSON (${v.slice(0, 60)})`);
    }
  };
  const id = typeof vars.id === 'string' ? vars.id : `t-${sha256(prompt).slice(0, 12)}`;
  const raw = {
    id,
    prompt,
    expect: json('expect') ?? { calls: [], no_call: false },
    ...(vars.results !== undefined ? { results: json('results') } : {}),
    ...(typeof vars.system === 'string' ? { system: vars.system } : {}),
  };
  if (vars.expect === undefined) return raw as SuiteCase; // nothing to grade: no expectation to validate
  const parsed = CaseSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ToolgaugeError(
      'CONFIG_INVALID',
      `promptfoo test '${id}' vars.${issue?.path.join('.') ?? 'expect'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

function toResponse(record: CaseRecord, testCase: SuiteCase, tools: ToolDef[]): PromptfooProviderResponse {
  const toolCalls = record.transcript.turns.flatMap((t) =>
    t.executed.map((e) => ({ id: e.callId, name: e.name, input: e.args, output: e.result, is_error: e.isError })),
  );
  const { input, output, cached = 0 } = record.usage;
  return {
    output: record.transcript.finalText,
    ...(record.error ? { error: `${record.error.code}: ${record.error.message}` } : {}),
    tokenUsage: { prompt: input, completion: output, total: input + output, cached },
    metadata: {
      toolCalls,
      toolgauge: {
        key: record.key,
        case: testCase,
        protocol: record.protocol,
        tools,
        transcript: record.transcript,
        renderer: record.renderer,
        provider: record.provider,
        simulated: record.simulated,
        ...(record.error ? { error: record.error } : {}),
      },
    },
  };
}
