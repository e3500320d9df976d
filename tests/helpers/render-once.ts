import type { RenderedRequest, Renderer, RenderInput } from '../../src/contracts/renderer.js';

/** Prepares `renderer` and renders one case with it: for callers that render a single case (tests, tools). */
export function renderOnce(renderer: Renderer, input: RenderInput): RenderedRequest {
  const { case: c, ...prepareInput } = input;
  return renderer.prepare(prepareInput).render(c);
}
