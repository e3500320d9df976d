/**
 * The starter config: the generated suite, two renderers, `sim:oracle` (simulated, always right: it proves the
 * wiring with no key and no network) and, commented out, a real model to add. Keys are named by environment variable
 * only; the file never holds one. Settings sized for a local server (docs/providers.md explains them).
 */
export function starterConfig(suiteFile: string): string {
  return `# toolgauge config written by \`toolgauge init\`. Every path here is relative to this file.
# Run: npx toolgauge eval -c <this file>     Check the setup: npx toolgauge doctor -c <this file>
suites:
  - ${suiteFile}
renderers:
  - full-details          # tools described in the system prompt; calls read from the reply's text
  - native-functions      # the API's own tool definitions; calls read from its tool_calls
providers:
  - sim:oracle            # simulated and always right: proves suite, server and graders; remove once a model is added
  # A local OpenAI-compatible server (vLLM, llama.cpp --jinja, LM Studio): recipes in docs/providers.md
  # - id: openai-compatible:qwen2.5-7b-instruct
  #   options: { baseURL: http://127.0.0.1:8000/v1, temperature: 0, timeoutMs: 300000, concurrency: 1 }
  # A hosted API; its key is read from OPENAI_API_KEY (never written here)
  # - openai:gpt-4o-mini
repeats: 1
concurrency: 2            # cases in flight; 1–2 for a local CPU or single-GPU server, 8+ for a hosted API
maxTurns: 6
timeouts:
  turnMs: 120000          # one model reply; a local model on CPU may need 300000
  caseMs: 600000
  toolMs: 30000
  serverStartMs: 120000   # an MCP server started with npx or uvx may be downloaded first (on a fresh CI runner)
out: reports
gate:
  maxInfraErrorRate: 0.2
  thresholds:
    # the oracle answers every case right: below 100% means the suite, the server or a grader is broken
    - { grader: parseable, provider: sim:oracle, min: 1 }
    - { grader: correct-arguments, provider: sim:oracle, min: 1 }
  # baseline: reports/baseline.json  (default; \`toolgauge baseline update <run-dir>\` writes it)
`;
}

/** A GitHub Actions workflow that runs the config on every pull request through toolgauge's action (action.yml). */
export function ciWorkflow(configFile: string, actionRef: string): string {
  return `# Written by \`toolgauge init\`: runs the eval on every pull request (docs/ci.md).
name: toolgauge
on: [pull_request]
jobs:
  toolgauge:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with: { node-version: 20 }
      - run: npm install --no-save toolgauge
      # the action ships in the toolgauge package: eval, the gate's exit code, the report as an artifact, the step summary
      - uses: ${actionRef}
        with:
          config: ${configFile}
        # env:
        #   OPENAI_API_KEY: \${{ secrets.OPENAI_API_KEY }}
`;
}
