import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { providerLoaders } from '../../providers/index.js';
import { ServerPool } from '../catalog/server-pool.js';
import { ConfigSchema } from '../config/config-schema.js';
import { DEFAULT_CONFIG, resolveSuitePath } from '../config/load-config.js';
import { loadSuite } from '../config/load-suite.js';
import { loadYamlFile } from '../config/load-yaml.js';
import { findCase } from '../config/suite-cases.js';
import { inlineVariant } from '../config/variant-flags.js';
import { NO_VARIANT, type VariantSpec } from '../config/variant-schema.js';
import type { RenderedRequest } from '../contracts/renderer.js';
import { ToolgaugeError } from '../errors.js';
import { resolveProviders, resolveStrategies, type Strategy } from '../plugins/index.js';
import { type RenderTarget, renderCase } from '../render/render-case.js';
import { displayPath } from '../util/display-path.js';
import { requestTokens } from '../util/tokens.js';

export interface RenderFlags {
  suite: string;
  case: string;
  renderer: string;
  provider?: string;
  options?: string;
  /** A variant's name (from the config's `variants`), a sweep point's (`crowded[distractors.count=25]`) or inline. */
  variant?: string;
  /** The config whose variants `variant` names. */
  config?: string;
  json?: boolean;
}

/** Prints exactly what the model would receive for one case: system prompt, messages and tools JSON. */
export async function renderCommand(flags: RenderFlags): Promise<number> {
  const baseDir = process.cwd();
  const loaded = loadSuite(resolveSuitePath(flags.suite, baseDir));
  const testCase = findCase(loaded.cases, (c) => c.id === flags.case);
  if (!testCase) {
    const ids = Array.from(loaded.cases, (c) => c.id);
    throw new ToolgaugeError(
      'USAGE',
      `--case ${flags.case}: no such case in ${flags.suite}; valid: ${ids.slice(0, 12).join(', ')}${ids.length > 12 ? `, … (${ids.length})` : ''}`,
    );
  }
  let options: Record<string, unknown> = {};
  if (flags.options) {
    try {
      options = JSON.parse(flags.options) as Record<string, unknown>;
    } catch {
      throw new ToolgaugeError('USAGE', `--options must be a JSON object, e.g. '{"noFences":true}'`);
    }
  }
  const strategy = await renderStrategy(flags, options, baseDir);
  const provider = await renderTarget(flags.provider ?? 'sim:oracle', baseDir);
  const pool = new ServerPool();
  let rendered: RenderedRequest;
  try {
    const session = await pool.openCase(loaded, testCase);
    // the case's first request exactly as runCase sends it (the simulated personas' expectations go beside it, not in it)
    ({ rendered } = renderCase({
      suite: loaded,
      testCase,
      live: session.catalog,
      strategy,
      provider,
      schemaDir: baseDir,
    }));
    await session.release();
  } finally {
    await pool.closeAll();
  }
  const head = { suite: loaded.suite.name, caseId: testCase.id, strategy: strategy.label, provider: provider.id };
  process.stdout.write(flags.json ? `${JSON.stringify(rendered, null, 2)}\n` : formatRendered(head, rendered));
  return 0;
}

/**
 * The strategy to render: the renderer with its options, on the variant `--variant` names (inline, or defined in the
 * config; a swept variant by the name of one of its points).
 */
async function renderStrategy(
  flags: RenderFlags,
  options: Record<string, unknown>,
  baseDir: string,
): Promise<Strategy> {
  const entry = { name: flags.renderer, options };
  if (!flags.variant) return (await resolveStrategies([entry], baseDir, () => '--renderer'))[0] as Strategy;
  let list: VariantSpec[];
  let dir = baseDir;
  let wanted = flags.variant;
  if (flags.variant.trimStart().startsWith('{')) {
    const spec = inlineVariant(flags.variant);
    list = [spec];
    wanted = spec.name;
  } else {
    const file = resolve(flags.config ?? DEFAULT_CONFIG);
    if (!existsSync(file)) {
      throw new ToolgaugeError(
        'USAGE',
        `--variant ${flags.variant}: no config file ${displayPath(file)} to define it; pass -c <config> or give the variant inline`,
      );
    }
    list = loadYamlFile(file, ConfigSchema, 'CONFIG_INVALID').data.variants ?? [];
    dir = dirname(file);
  }
  if (wanted === NO_VARIANT) return (await resolveStrategies([entry], baseDir, () => '--renderer'))[0] as Strategy;
  const base = wanted.includes('[') ? wanted.slice(0, wanted.indexOf('[')) : wanted;
  // a sweep point names its values (`crowded[distractors.count=25]`): that point, swept or not in the config
  const point = /\[(.*)\]$/.exec(wanted)?.[1];
  if (point) {
    const sweep = Object.fromEntries(
      point.split(',').map((kv) => {
        const [field, value] = kv.split('=');
        return [field ?? '', [Number(value)]];
      }),
    );
    list = list.map((v) => (v.name === base ? { ...v, sweep } : v));
  }
  const strategies = await resolveStrategies([{ ...entry, variants: [base] }], dir, () => '--renderer', {
    list,
    where: (i) => `variants[${i}]`,
  });
  const hit = strategies.find((s) => s.variant?.variant.name === wanted);
  if (hit) return hit;
  throw new ToolgaugeError(
    'USAGE',
    `--variant ${wanted}: ${base} is swept; name one of its points: ${strategies.map((s) => s.variant?.variant.name).join(', ')}`,
  );
}

/** The text `toolgauge render` prints: a header with the prompt size, then each part of the request. */
export function formatRendered(
  head: { suite: string; caseId: string; strategy: string; provider: string },
  rendered: RenderedRequest,
): string {
  const out: string[] = [];
  out.push(
    `# ${head.suite}/${head.caseId} · renderer ${head.strategy} · provider ${head.provider} · protocol ${rendered.protocol}`,
  );
  out.push(`# prompt size: ${requestTokens(rendered)} tokens (o200k_base; an estimate for non-OpenAI models)`);
  out.push('', '=== system ===', rendered.system);
  for (const m of rendered.messages) out.push('', `=== ${m.role} ===`, m.content);
  if (rendered.tools) out.push('', `=== tools (${rendered.tools.length}) ===`, JSON.stringify(rendered.tools, null, 2));
  if (rendered.cacheHints) out.push('', '=== cache hints ===', JSON.stringify(rendered.cacheHints));
  if (rendered.stop) out.push('', '=== stop ===', JSON.stringify(rendered.stop));
  return `${out.join('\n')}\n`;
}

/**
 * Rendering needs only the provider's id and kind (they shape native tool names), never a key or a baseURL, so a
 * built-in provider id is not instantiated: `render` works with no credentials. Plugin paths are loaded as usual.
 */
export async function renderTarget(id: string, baseDir: string): Promise<RenderTarget> {
  const colon = id.indexOf(':');
  const prefix = id.slice(0, Math.max(colon, 0));
  if (colon > 0 && colon < id.length - 1 && Object.hasOwn(providerLoaders, prefix)) {
    return { id, kind: prefix };
  }
  const [slot] = await resolveProviders([id], baseDir, () => '--provider');
  return { id: slot!.id, kind: slot!.provider.kind };
}
