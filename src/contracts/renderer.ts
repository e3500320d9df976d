import type { ModelRequest, ProviderKind } from './model.js';
import type { SuiteCase } from './suite.js';
import type { Catalog } from './tool.js';

export interface RenderInput {
  catalog: Catalog;
  case: SuiteCase;
  /** Renderer options from the config (`{ name, options }`). */
  options: Record<string, unknown>;
  /** The provider that will receive the request, for provider-specific tool formats. */
  provider: { id: string; kind: ProviderKind };
}

/** The first request of a case. Pure: no I/O, same input → same output. */
export type RenderedRequest = Omit<ModelRequest, 'meta' | 'oracle'>;

export interface Renderer {
  name: string;
  description: string;
  /** Whether the renderer reads the schema cache instead of the live catalog. */
  usesCache?: boolean;
  render(input: RenderInput): RenderedRequest;
}
