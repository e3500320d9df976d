import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderers } from '../renderers/index.js';
import { ServerPool } from '../src/catalog/server-pool.js';
import { filterTools } from '../src/catalog/tool-filter.js';
import { renderCommand } from '../src/cli/render-command.js';
import { schemasCommand } from '../src/cli/schemas-command.js';
import { type LoadedSuite, loadSuite } from '../src/config/load-suite.js';
import type { RenderedRequest } from '../src/contracts/renderer.js';
import type { ToolDef } from '../src/contracts/tool.js';
import { ROOT } from './cli-helpers.js';

/** Every bundled suite × case × renderer (plus option variants) × provider kind, in-process through renderCommand. */
const SUITES = ['excel', 'economist', 'coder'].map((s) => join(ROOT, 'suites', `${s}.yaml`));
const PROVIDERS = ['openai:gpt-4o-mini', 'anthropic:claude-sonnet', 'ollama:qwen3', 'openai-compatible:local', 'sim:oracle'];
const STRATEGIES: { renderer: string; options?: Record<string, unknown>; protocol: string }[] = [
  { renderer: 'names-only', protocol: 'xml-tags' },
  { renderer: 'full-details', protocol: 'xml-tags' },
  { renderer: 'full-details', options: { noFences: true, protocol: 'json' }, protocol: 'json' },
  { renderer: 'full-details', options: { protocol: 'python-call' }, protocol: 'python-call' },
  { renderer: 'native-functions', protocol: 'native' },
  { renderer: 'cached-schemas', protocol: 'xml-tags' },
  { renderer: 'cached-schemas', options: { protocol: 'native' }, protocol: 'native' },
];
// Tool names every native API accepts (OpenAI's rule is the strictest of the three).
const NATIVE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

let work: string;
let cwd: string;
const suites: LoadedSuite[] = SUITES.map(loadSuite);
const live = new Map<string, ToolDef[]>();
let out = '';

/** Runs a command with stdout captured; returns its exit code and what it printed. */
async function captured(fn: () => Promise<number>): Promise<{ code: number; stdout: string }> {
  out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  try {
    const code = await fn();
    return { code, stdout: out };
  } finally {
    spy.mockRestore();
  }
}

beforeAll(async () => {
  // The schema cache lives beside the config: refresh it into a temp dir, and render from there.
  work = mkdtempSync(join(tmpdir(), 'tg-render-'));
  const config = join(work, 'toolgauge.config.yaml');
  writeFileSync(config, `suites: [${SUITES.join(', ')}]\nrenderers: [cached-schemas]\nproviders: [sim:oracle]\n`);
  const refreshed = await captured(() => schemasCommand('refresh', { config }));
  expect(refreshed.code).toBe(0);
  expect(refreshed.stdout).toMatch(/excel: \d+ tools →/);
  const pool = new ServerPool();
  try {
    for (const s of suites) {
      const session = await pool.openCase(s, s.suite.cases[0]!);
      live.set(s.suite.name, session.catalog.tools);
      await session.release();
    }
  } finally {
    await pool.closeAll();
  }
  cwd = process.cwd();
  process.chdir(work);
});
afterAll(() => {
  if (cwd) process.chdir(cwd);
});

describe('toolgauge render works for every bundled suite, case, renderer and provider', () => {
  it('renders each combination, with the protocol, tools and messages the renderer promises', async () => {
    let count = 0;
    for (const s of suites) {
      const name = s.suite.name;
      for (const c of s.suite.cases) {
        const tools = filterTools(live.get(name)!, s.suite.toolFilter, c.tools);
        for (const strategy of STRATEGIES) {
          for (const provider of PROVIDERS) {
            const where = `${name}/${c.id} ${strategy.renderer}${JSON.stringify(strategy.options ?? {})} ${provider}`;
            const { code, stdout } = await captured(() =>
              renderCommand({
                suite: s.file,
                case: c.id,
                renderer: strategy.renderer,
                provider,
                json: true,
                ...(strategy.options ? { options: JSON.stringify(strategy.options) } : {}),
              }),
            );
            expect(code, where).toBe(0);
            const req = JSON.parse(stdout) as RenderedRequest;
            expect(req.protocol, where).toBe(strategy.protocol);
            expect(req.system.length, where).toBeGreaterThan(0);
            expect(req.messages.at(-1), where).toMatchObject({ role: 'user', content: c.prompt });
            if (strategy.protocol === 'native') {
              // One native definition per visible tool, under a name the provider's API accepts, routed back.
              expect(req.tools?.length, where).toBe(tools.length);
              const names = req.tools!.map((t) => t.name);
              expect(new Set(names).size, where).toBe(names.length);
              for (const t of req.tools!) {
                expect(t.name, where).toMatch(NATIVE_NAME);
                expect(
                  tools.some((d) => d.server === t.target.server && d.name === t.target.tool),
                  where,
                ).toBe(true);
              }
            } else {
              expect(req.tools, where).toBeUndefined();
              for (const t of tools) expect(req.system, `${where}: ${t.name}`).toContain(t.name);
            }
            count++;
          }
        }
      }
    }
    const cases = suites.reduce((n, s) => n + s.suite.cases.length, 0);
    expect(cases).toBeGreaterThan(90);
    expect(count).toBe(cases * STRATEGIES.length * PROVIDERS.length);
    expect(Object.keys(renderers).sort()).toEqual([...new Set(STRATEGIES.map((s) => s.renderer))].sort());
  });
});
