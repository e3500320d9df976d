import { CatalogMemo, caseCatalog } from '../catalog/case-catalog.js';
import type { LoadedSuite } from '../config/load-suite.js';
import type { ModelRequest, Oracle, ProviderKind } from '../contracts/model.js';
import type { PreparedRenderer, RenderedRequest } from '../contracts/renderer.js';
import type { SuiteCase } from '../contracts/suite.js';
import type { Catalog, ToolDef } from '../contracts/tool.js';
import type { Strategy } from '../plugins/index.js';
import type { VariantView } from '../presentation/apply-variant.js';
import { oracleOf } from './oracle-of.js';
import type { RunContext } from './run-context.js';

/** The provider a request is rendered for: its id and kind shape native tool names, nothing else is needed. */
export interface RenderTarget {
  id: string;
  kind: ProviderKind;
}

export interface CaseViewInput {
  suite: LoadedSuite;
  testCase: SuiteCase;
  /** The tools the case's servers listed (or the suite's inline tools). */
  live: Catalog;
  /** Absent: a strategy no longer configured (the live tools). */
  strategy: Strategy | undefined;
  /** The folder of the schema cache (`<dir>/schemas/<suite>.json`), the config file's. */
  schemaDir: string;
  /** The run's catalogs and prepared renderers; absent, nothing is reused (a single render). */
  context?: RunContext;
}

export interface RenderCaseInput extends CaseViewInput {
  strategy: Strategy;
  provider: RenderTarget;
  /** Which trial of the case the request is for (simulated personas are seeded by it). Default: repeat 0, seed 0. */
  trial?: { repeat: number; seed: number };
}

export interface RenderedCase {
  /**
   * The tools the strategy shows for the case: filtered, from the live servers or the schema cache (with drift), as
   * its catalog variant presents them.
   */
  catalog: Catalog;
  /** The same tools as their servers define them (distractors marked): what calls are routed and graded against. */
  tools: ToolDef[];
  /** What the renderer made of it. */
  rendered: RenderedRequest;
  /** The renderer as prepared for the catalog (a tool-search strategy presents the tools a search finds with it). */
  prepared: PreparedRenderer;
  /** The first request of the case, exactly as the provider receives it. */
  request: ModelRequest;
  /** The expectations of the case's first message, for a simulated persona (passed beside the request, not in it). */
  oracle: Oracle;
}

/**
 * The catalog a strategy shows for one case: the live tools, or the schema cache for a renderer that uses it,
 * narrowed by the suite's and the case's filters, then transformed by the strategy's catalog variant; and the same
 * tools as served, which `regrade` judges a stored transcript against as the run did.
 */
export function caseView(input: CaseViewInput): VariantView {
  const memo = input.context?.catalogs;
  const filtered = caseCatalog(
    {
      live: input.live,
      useCache: input.strategy?.renderer.usesCache === true,
      schemaDir: input.schemaDir,
      suite: input.suite.suite,
      testCase: input.testCase,
    },
    memo,
  );
  const variant = input.strategy?.variant;
  if (!variant) return { catalog: filtered, tools: filtered.tools };
  return (memo ?? new CatalogMemo()).variant(filtered, variant, input.live);
}

/**
 * One case rendered by one strategy for one provider: the one way a first request is made, so `eval` (runCase)
 * sends and `render` prints the same thing, and `regrade` judges against the same catalog. Pure given the catalog.
 */
export function renderCase(input: RenderCaseInput): RenderedCase {
  const { catalog, tools } = caseView(input);
  const { testCase, strategy } = input;
  const provider = { id: input.provider.id, kind: input.provider.kind };
  const prepared = input.context
    ? input.context.prepare(strategy, catalog, provider)
    : strategy.renderer.prepare({ catalog, options: strategy.options, provider });
  const rendered = prepared.render(testCase);
  const memo = input.context?.catalogs ?? new CatalogMemo();
  const request: ModelRequest = {
    ...rendered,
    meta: {
      caseId: `${input.suite.suite.name}/${testCase.id}`,
      repeat: input.trial?.repeat ?? 0,
      seed: input.trial?.seed ?? 0,
      renderer: strategy.label,
      turn: 0,
    },
  };
  return { catalog, tools, rendered, prepared, request, oracle: oracleOf(testCase, 0, memo.summary(catalog)) };
}
