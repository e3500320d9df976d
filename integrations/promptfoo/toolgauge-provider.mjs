// promptfoo provider: runs a toolgauge renderer + provider + agent loop against MCP servers for each promptfoo test.
//   providers:
//     - id: file://node_modules/…/toolgauge-provider.mjs
//       config: { renderer: full-details, provider: openai:gpt-4o-mini, servers: { excel: { builtin: excel } } }
// Test vars: `expect` (toolgauge's expect: calls / no_call / answer_mentions), optional `id`, `results`, `system`.
// Returns the final answer as `output`, executed calls in `metadata.toolCalls`, the transcript in `metadata.toolgauge`.

import { loadToolgauge } from './load-toolgauge.mjs';

const tg = await loadToolgauge();

export default class ToolgaugeProvider {
  constructor(options = {}) {
    // promptfoo adds `basePath` (the promptfoo config's folder): relative paths in the config (user servers,
    // renderer/provider modules, the schema cache) are relative to it.
    const { basePath, ...config } = options.config ?? {};
    this.runner = new tg.PromptfooCaseRunner(config, basePath || process.cwd());
    this.providerId = options.id ?? this.runner.label;
    this.label = options.label;
  }

  id() {
    return this.providerId;
  }

  async callApi(prompt, context) {
    try {
      return await this.runner.run(prompt, context?.vars ?? {});
    } catch (e) {
      return { error: `toolgauge: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  async cleanup() {
    await this.runner.close();
  }
}
