import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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
concurrency: 2            # cases in flight; 1–2 for a local CPU or single-GPU server, 8+ for a hosted API; 1 when
                          # cases depend on what another case's calls wrote (init's first eval ran them one at a time)
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

/**
 * How the workflow gets toolgauge: from the project's own dependencies (its package.json lists toolgauge), or, for a
 * project that does not list it, straight from toolgauge's repository (toolgauge is not published on npm yet).
 */
export type WorkflowInstall = { from: 'project'; lockfile: boolean } | { from: 'repository' };

/** Where toolgauge comes from for the project in `dir` (the folder that holds .github/). */
export function workflowInstall(dir: string): WorkflowInstall {
  let manifest: Record<string, unknown> = {};
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return { from: 'repository' };
  }
  const listed = ['dependencies', 'devDependencies', 'optionalDependencies'].some((k) => {
    const deps = manifest[k];
    return typeof deps === 'object' && deps !== null && 'toolgauge' in deps;
  });
  if (!listed) return { from: 'repository' };
  const lockfile = ['package-lock.json', 'npm-shrinkwrap.json'].some((f) => existsSync(join(dir, f)));
  return { from: 'project', lockfile };
}

/** The workflow's install step(s), as docs/ci.md describes them. */
function installSteps(install: WorkflowInstall): string[] {
  if (install.from === 'project') {
    return [
      "      # toolgauge is in the project's dependencies: its package holds the action used below",
      `      - run: ${install.lockfile ? 'npm ci' : 'npm install'}`,
    ];
  }
  return [
    '      # toolgauge is not published on npm yet: it is installed from its repository, and its `prepare` script',
    '      # builds it. TODO: replace <owner> with the account that hosts toolgauge; or add it to the project once',
    '      # (npm install --save-dev github:<owner>/toolgauge) and run `npm ci` here instead (docs/ci.md).',
    '      - run: npm install --no-save github:<owner>/toolgauge',
  ];
}

/** A GitHub Actions workflow that runs the config on every pull request through toolgauge's action (action.yml). */
export function ciWorkflow(configFile: string, actionRef: string, install: WorkflowInstall): string {
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
${installSteps(install).join('\n')}
      # the action ships in the toolgauge package: eval, the gate's exit code, the report as an artifact, the step summary
      - uses: ${actionRef}
        with:
          config: ${configFile}
        # env:
        #   OPENAI_API_KEY: \${{ secrets.OPENAI_API_KEY }}
`;
}
