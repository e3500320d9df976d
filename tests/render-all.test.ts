import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderers } from '../renderers/index.js';
import { ServerPool } from '../src/catalog/server-pool.js';
import { formatRendered, renderCommand, renderTarget } from '../src/cli/render-command.js';
import { schemasCommand } from '../src/cli/schemas-command.js';
import { type LoadedSuite, loadSuite } from '../src/config/load-suite.js';
import type { RenderedRequest } from '../src/contracts/renderer.js';
import { resolveStrategies, type Strategy } from '../src/plugins/index.js';
import { renderCase } from '../src/render/render-case.js';
import { filterTools } from '../src/util/tool-filter.js';
import { ROOT } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

/**
 * Issue 4: `toolgauge render` works for every bundled suite × case × renderer (plus option variants) × provider
 * kind (text-protocol strategies: every case with a rotating provider, plus every provider on a few cases). In-process: suites are parsed and each case's MCP server opened once, then every strategy × provider goes
 * through the functions renderCommand is made of (renderCase + formatRendered); renderCommand itself runs for every
 * renderer × provider on one case per suite, and a real CLI process checks the printed format (render-cli.test.ts).
 */
const SUITES = ['excel', 'economist', 'coder'].map((s) => join(ROOT, 'suites', `${s}.yaml`));
const PROVIDERS = [
  'openai:gpt-4o-mini',
  'anthropic:claude-sonnet',
  'ollama:qwen3',
  'openai-compatible:local',
  'sim:oracle',
];
const ENTRIES: { name: string; options?: Record<string, unknown>; protocol: string; deferred?: true }[] = [
  { name: 'names-only', protocol: 'xml-tags' },
  { name: 'full-details', protocol: 'xml-tags' },
  { name: 'full-details', options: { noFences: true, protocol: 'json' }, protocol: 'json' },
  { name: 'full-details', options: { protocol: 'python-call' }, protocol: 'python-call' },
  { name: 'native-functions', protocol: 'native' },
  { name: 'cached-schemas', protocol: 'xml-tags' },
  { name: 'cached-schemas', options: { protocol: 'native' }, protocol: 'native' },
  { name: 'cline-xml', protocol: 'tool-named-xml' },
  { name: 'hermes', protocol: 'xml-tags' },
  { name: 'claude-code', protocol: 'native' },
  { name: 'tool-search', protocol: 'native', deferred: true },
  { name: 'tool-search', options: { protocol: 'json', method: 'regex' }, protocol: 'json', deferred: true },
];
// Tool names every native API accepts (OpenAI's rule is the strictest of the three).
const NATIVE_NAME = /^[A-Za-z0-9_-]{1,64}$/;
// Provider keys are deliberately absent: rendering must not need credentials.
delete process.env.OPENAI_API_KEY;
delete process.env.ANTHROPIC_API_KEY;

let work: string;
let cwd: string;
let suites: LoadedSuite[];
let strategies: Strategy[];

/** Runs a command with stdout captured; returns its exit code and what it printed. */
async function captured(fn: () => Promise<number>): Promise<{ code: number; stdout: string }> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  try {
    return { code: await fn(), stdout: out };
  } finally {
    spy.mockRestore();
  }
}

/**
 * What every rendering must satisfy, whatever the path that produced it. Returns the problems found (plain checks,
 * not one expect() per tool: thousands of renderings stay fast, and every problem is reported at once).
 */
function problemsOf(
  req: RenderedRequest,
  protocol: string,
  prompt: string,
  tools: { server: string; name: string }[],
  deferred = false,
): string[] {
  const problems: string[] = [];
  if (req.protocol !== protocol) problems.push(`protocol ${req.protocol}, expected ${protocol}`);
  if (!req.system) problems.push('empty system prompt');
  const last = req.messages.at(-1);
  if (last?.role !== 'user' || last.content !== prompt) problems.push('last message is not the case prompt');
  if (deferred) {
    // tool search: the first request offers the search tool alone, and says how many tools it holds back
    if (req.toolSearch?.deferred !== tools.length) problems.push(`toolSearch ${JSON.stringify(req.toolSearch)}`);
    if (!req.system.includes(`${tools.length} more can be found with`)) problems.push('no deferred-tools note');
    if (protocol === 'native' && req.tools?.map((t) => t.name).join() !== req.toolSearch?.tool)
      problems.push('native tools other than the search tool');
    return problems;
  }
  if (protocol === 'native') {
    // One native definition per visible tool, under a name the provider's API accepts, routed back to it.
    const rendered = req.tools ?? [];
    if (rendered.length !== tools.length) problems.push(`${rendered.length} native tools for ${tools.length} tools`);
    if (new Set(rendered.map((t) => t.name)).size !== rendered.length) problems.push('duplicate native tool names');
    for (const t of rendered) {
      if (!NATIVE_NAME.test(t.name)) problems.push(`native tool name ${t.name} is not accepted by the APIs`);
      if (!tools.some((d) => d.server === t.target.server && d.name === t.target.tool))
        problems.push(`native tool ${t.name} routes to ${t.target.server}/${t.target.tool}, not a visible tool`);
    }
  } else {
    if (req.tools) problems.push('a text protocol request carries native tools');
    for (const t of tools) if (!req.system.includes(t.name)) problems.push(`tool ${t.name} is not in the prompt`);
  }
  return problems;
}

beforeAll(async () => {
  suites = SUITES.map((f) => loadSuite(f));
  strategies = await resolveStrategies(ENTRIES, ROOT, (i) => `ENTRIES[${i}]`);
  // The schema cache lives beside the config: `schemas refresh` writes it into a temp dir, rendered from there.
  work = tempDir('tg-render-');
  const config = join(work, 'toolgauge.config.yaml');
  writeFileSync(config, `suites: [${SUITES.join(', ')}]\nrenderers: [cached-schemas]\nproviders: [sim:oracle]\n`);
  const refreshed = await captured(() => schemasCommand('refresh', { config }));
  expect(refreshed.code).toBe(0);
  expect(refreshed.stdout).toMatch(/excel: \d+ tools →/);
  cwd = process.cwd();
  process.chdir(work);
});
afterAll(() => {
  if (cwd) process.chdir(cwd);
});

describe('toolgauge render works for every bundled suite, case, renderer and provider', () => {
  it('every case × strategy × provider renders, with the protocol, tools and messages the renderer promises', async () => {
    const targets = await Promise.all(PROVIDERS.map((p) => renderTarget(p, work)));
    const pool = new ServerPool();
    let count = 0;
    let formatted = 0;
    const problems: string[] = [];
    try {
      for (const loaded of suites) {
        const suiteCases = [...loaded.cases];
        for (const [ci, testCase] of suiteCases.entries()) {
          const session = await pool.openCase(loaded, testCase);
          const live = session.catalog;
          await session.release();
          const tools = filterTools(live.tools, loaded.suite.toolFilter, testCase.tools);
          for (const [i, strategy] of strategies.entries()) {
            // Native tool definitions depend on the provider: every provider. Text prompts do not (the renderers
            // never read it): each case still gets one, rotating through all of them.
            const native = ENTRIES[i]!.protocol === 'native';
            const rotated = (ci + i) % targets.length;
            for (const [k, provider] of targets.entries()) {
              if (!native && k !== rotated && testCase !== suiteCases[k]) continue;
              const where = `${loaded.suite.name}/${testCase.id} ${strategy.label} ${provider.id}`;
              const req = renderCase({ suite: loaded, testCase, live, strategy, provider, schemaDir: work }).rendered;
              for (const p of problemsOf(req, ENTRIES[i]!.protocol, testCase.prompt, tools, ENTRIES[i]!.deferred))
                problems.push(`${where}: ${p}`);
              // The printed form (token counting is the slow part: once per suite × strategy × provider).
              if (testCase === suiteCases[k]) {
                const head = {
                  suite: loaded.suite.name,
                  caseId: testCase.id,
                  strategy: strategy.label,
                  provider: provider.id,
                };
                const text = formatRendered(head, req);
                expect(text.split('\n', 1)[0], where).toBe(
                  `# ${loaded.suite.name}/${testCase.id} · renderer ${strategy.label} · provider ${provider.id} · protocol ${req.protocol}`,
                );
                expect(text, where).toMatch(/^# prompt size: [1-9]\d* tokens/m);
                expect(text, where).toContain(`=== user ===\n${testCase.prompt}`);
                formatted++;
              }
              count++;
            }
          }
        }
      }
    } finally {
      await pool.closeAll();
    }
    expect(problems).toEqual([]);
    const cases = suites.reduce((n, s) => n + s.cases.count, 0);
    expect(cases).toBeGreaterThan(90);
    const nativeEntries = ENTRIES.filter((e) => e.protocol === 'native').length;
    expect(count).toBeGreaterThanOrEqual(cases * (nativeEntries * PROVIDERS.length + ENTRIES.length - nativeEntries));
    expect(formatted).toBe(suites.length * ENTRIES.length * PROVIDERS.length);
    expect(Object.keys(renderers).sort()).toEqual([...new Set(ENTRIES.map((s) => s.name))].sort());
  });

  it('renderCommand itself, for every renderer and every provider on a case of each suite (no API keys set)', async () => {
    let n = 0;
    const seen = new Set<string>();
    for (const loaded of suites) {
      const testCase = [...loaded.cases].find((c) => c.expect.calls?.length) ?? [...loaded.cases][0]!;
      for (const entry of ENTRIES) {
        {
          const provider = PROVIDERS[n++ % PROVIDERS.length]!;
          seen.add(provider);
          const flags = {
            suite: loaded.file,
            case: testCase.id,
            renderer: entry.name,
            provider,
            json: true,
            ...(entry.options ? { options: JSON.stringify(entry.options) } : {}),
          };
          const { code, stdout } = await captured(() => renderCommand(flags));
          expect(code).toBe(0);
          const session = await new ServerPool().openCase(loaded, testCase);
          await session.release();
          const tools = filterTools(session.catalog.tools, loaded.suite.toolFilter, testCase.tools);
          const where = `${loaded.suite.name}/${testCase.id} ${entry.name} ${provider}`;
          expect(
            problemsOf(JSON.parse(stdout) as RenderedRequest, entry.protocol, testCase.prompt, tools, entry.deferred),
            where,
          ).toEqual([]);
        }
      }
    }
    expect(seen.size).toBe(PROVIDERS.length);
  });
});
