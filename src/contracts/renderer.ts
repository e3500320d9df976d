import type { ModelRequest, ProviderKind, RenderedTool } from './model.js';
import type { SuiteCase } from './suite.js';
import type { Catalog, ToolDef } from './tool.js';

/** What a renderer is prepared with: everything about a request that does not depend on the case. */
export interface PrepareInput {
  catalog: Catalog;
  /** Renderer options from the config (`{ name, options }`). */
  options: Record<string, unknown>;
  /** The provider that will receive the request, for provider-specific tool formats. */
  provider: { id: string; kind: ProviderKind };
}

/** A prepared renderer and one case: the input of a whole render, for callers that render a single case. */
export interface RenderInput extends PrepareInput {
  case: SuiteCase;
}

/** The first request of a case. Pure: no I/O, same input → same output. */
export type RenderedRequest = Omit<ModelRequest, 'meta'>;

/**
 * A renderer bound to one catalog, options and provider. The runner prepares once per (strategy, catalog, provider)
 * in a run and renders every case with it, so the case-independent work (parsing options, the tool section, native
 * tool definitions) is done once. What `render` returns may share those parts between cases: they are read-only.
 */
export interface PreparedRenderer {
  render(c: SuiteCase): RenderedRequest;
  /**
   * For a renderer whose requests hold tools back behind a search (`toolSearch`): how the tools a search found are
   * shown. `tools`, for native requests, joins the request's tools from the next turn; `text` is the search's result.
   */
  expand?(found: readonly ToolDef[]): { tools?: RenderedTool[]; text: string };
}

export interface Renderer {
  name: string;
  description: string;
  /** Whether the renderer reads the schema cache instead of the live catalog. */
  usesCache?: boolean;
  /** Pure: no I/O. Invalid options throw here (a config error naming the renderer). */
  prepare(input: PrepareInput): PreparedRenderer;
}
