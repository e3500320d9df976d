/**
 * toolgauge's library API: each command that makes or reads a run as a function that returns data and prints
 * nothing (docs/api.md). Errors are ToolgaugeErrors with codes; `exitCodeOf(e)` is the exit code the CLI gives them.
 */

export { exitCodeOf, isToolgaugeError, ToolgaugeError } from '../errors.js';
export { type CompareOptions, type CompareRunsResult, compare } from './compare.js';
export type { ConfigObject } from './config-input.js';
export { evaluate } from './evaluate.js';
export type {
  EvaluateControl,
  EvaluateOptions,
  EvaluateProgress,
  EvaluateResult,
  EvaluateStart,
  EvaluateVerdict,
} from './evaluate-types.js';
export { type ExportOptions, type ExportResult, exportRun } from './export-run.js';
export { type GradeControl, type GradeOptions, grade } from './grade.js';
export { type MergeControl, type MergeOptions, type MergeResult, merge } from './merge.js';
export { type ParseDocument, type ParsedInput, type ParseOptions, parse } from './parse.js';
export { type RegradeControl, type RegradeOptions, type RegradeResult, regrade } from './regrade.js';
export { type RenderOptions, type RenderResult, render } from './render.js';
export { type ReplayOptions, type ReplayResult, replay } from './replay.js';
export type { RunResult, RunVerdict } from './run-result.js';
