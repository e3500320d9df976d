/**
 * toolgauge's public entry for integrations (the promptfoo provider and assertions, benchmarks, user scripts).
 * The CLI does not import this file, so nothing here adds to its start-up.
 */

export { providerResponder, scriptedResponder, toModelRequest } from '../mock-servers/llm/responders.js';
export { startLlmMock } from '../mock-servers/llm/server.js';
export { builtinServers } from '../mock-servers/mcp/index.js';
export { providerLoaders } from '../providers/index.js';
export { providerFactories } from '../providers/provider-factories.js';
export { renderers } from '../renderers/index.js';
export * from './api/index.js';
export { ServerPool } from './catalog/server-pool.js';
export { loadConfig, loadSuites } from './config/load-config.js';
export { loadSuite } from './config/load-suite.js';
export type * from './contracts/index.js';
export type {
  PromptfooGradeContext,
  PromptfooProviderConfig,
  PromptfooProviderResponse,
} from './export/promptfoo-case.js';
export { caseFromVars, PromptfooCaseRunner, PromptfooProviderConfigSchema } from './export/promptfoo-case.js';
export { gradeForPromptfoo } from './export/promptfoo-grade.js';
export { gradeCase } from './graders/grade-case.js';
export { graders } from './graders/index.js';
export { acceptedCalls, parseResponse } from './parse/index.js';
export {
  resolveGrader,
  resolveGraders,
  resolveProvider,
  resolveProviders,
  resolveRenderer,
  resolveStrategies,
} from './plugins/index.js';
export { resolveReporters } from './report/reporter-registry.js';
export { RunAggregate } from './run-log/aggregate.js';
export { readRunLog } from './run-log/reader.js';
export { RUN_LOG_FORMAT } from './run-log/schema.js';
export { runAgentLoop } from './runner/agent-loop.js';
export { runConversation } from './runner/conversation.js';
export { runCase } from './runner/run-case.js';
export type { Estimate } from './tune/estimate.js';
export type { Objective, RoundEvidence, Standing } from './tune/race.js';
export { type TuneOptions, tune } from './tune/tune.js';
export type { ProviderTune, TuneResult } from './tune/tune-result.js';
