import { render } from '../api/render.js';
import type { RenderedRequest } from '../contracts/renderer.js';
import { requestTokens } from '../util/tokens.js';

export { renderTarget } from '../api/render.js';

export interface RenderFlags {
  suite: string;
  case: string;
  renderer: string;
  provider?: string;
  /** Renderer options as JSON. */
  options?: string;
  /** A variant's name (from the config's `variants`), a sweep point's (`crowded[distractors.count=25]`) or inline. */
  variant?: string;
  /** The config whose variants `variant` names. */
  config?: string;
  json?: boolean;
}

/** Prints exactly what the model would receive for one case: system prompt, messages and tools JSON. */
export async function renderCommand(flags: RenderFlags): Promise<number> {
  const { json, ...options } = flags;
  const { rendered, ...head } = await render(options);
  process.stdout.write(json ? `${JSON.stringify(rendered, null, 2)}\n` : formatRendered(head, rendered));
  return 0;
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
