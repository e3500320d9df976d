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

/** What `toolgauge render` takes: one case, one strategy, one provider. */
export interface RenderOptions {
  suite: string;
  case: string;
  renderer: string;
  provider?: string;
  /** Renderer options: an object, or its JSON text (as `--options` gives it). */
  options?: Record<string, unknown> | string;
  /** A variant's name (from the config's `variants`), a sweep point's (`crowded[distractors.count=25]`) or inline. */
  variant?: string;
  /** The config whose variants `variant` names. */
  config?: string;
  /** The folder the suite, the config and plugins are relative to (default: the current one). */
  baseDir?: string;
}

/** One case's first request, exactly as runCase sends it (without the simulated personas' oracle). */
export interface RenderResult {
  suite: string;
  caseId: string;
  /** The strategy's label, and the provider's id. */
  strategy: string;
  provider: string;
  rendered: RenderedRequest;
}

/** `toolgauge render` as a function: what the model would receive for one case (system prompt, messages, tools). */
export async function render(flags: RenderOptions): Promise<RenderResult> {
  const baseDir = flags.baseDir ?? process.cwd();
  const loaded = loadSuite(resolveSuitePath(flags.suite, baseDir));
  const testCase = findCase(loaded.cases, (c) => c.id === flags.case);
  if (!testCase) {
    const ids = Array.from(loaded.cases, (c) => c.id);
    throw new ToolgaugeError(
      'USAGE',
      `--case ${flags.case}: no such case in ${flags.suite}; valid: ${ids.slice(0, 12).join(', ')}${ids.length > 12 ? `, … (${ids.length})` : ''}`,
    );
  }
  const strategy = await renderStrategy(flags, rendererOptions(flags.options), baseDir);
  const provider = await renderTarget(flags.provider ?? 'sim:oracle', baseDir);
  const pool = new ServerPool();
  let rendered: RenderedRequest;
  try {
    const session = await pool.openCase(loaded, testCase);
    // the case's first request exactly as runCase sends it (without the simulated personas' oracle)
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
  return { suite: loaded.suite.name, caseId: testCase.id, strategy: strategy.label, provider: provider.id, rendered };
}

/** The renderer's options, from an object or from JSON text (read once the case is found, so a missing case is the error named first). */
function rendererOptions(given: Record<string, unknown> | string | undefined): Record<string, unknown> {
  if (typeof given !== 'string') return given ?? {};
  try {
    return JSON.parse(given) as Record<string, unknown>;
  } catch {
    throw new ToolgaugeError('USAGE', `--options must be a JSON object, e.g. '{"noFences":true}'`);
  }
}

/**
 * The strategy to render: the renderer with its options, on the variant `--variant` names (inline, or defined in the
 * config; a swept variant by the name of one of its points).
 */
async function renderStrategy(
  flags: RenderOptions,
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
