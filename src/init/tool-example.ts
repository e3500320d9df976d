import type { Ajv, ValidateFunction } from 'ajv';
import { allowedForm, answerArgs } from '../config/expected-answer.js';
import type { JSONSchema } from '../contracts/json-schema.js';
import type { ToolDef } from '../contracts/tool.js';
import { matchCall } from '../graders/match-args.js';
import { checkAgainstSchema, newAjv } from '../graders/schema-check.js';
import { canonicalJson } from '../util/canonical-json.js';
import { describedExample } from './example-string.js';
import { exampleArgs, noVariants, type ToolHints, type Variants } from './example-value.js';

/** A tool's example call as the starter suite writes it, or why none could be made. */
export type ToolExample =
  | { ok: true; args: Record<string, unknown>; expected: Record<string, unknown[]> }
  | { ok: false; reason: string };

/** How many variants of an example are tried before the tool is left to a person. */
const MAX_TRIES = 40;

/** Whether the tool's annotations say it changes state. */
export const changesState = (t: ToolDef) =>
  t.annotations?.destructiveHint === true || (t.annotations !== undefined && t.annotations.readOnlyHint === false);

/** The tool's schema compiled by ajv for its error paths; undefined when ajv cannot compile it. */
function compile(ajv: Ajv, schema: JSONSchema): ValidateFunction | undefined {
  // a draft ajv was not set up for (2019-09, 2020-12) is read with the keywords it knows
  const { $schema: _, ...rest } = schema;
  try {
    return ajv.compile(rest);
  } catch {
    return undefined;
  }
}

const within = (place: string, at: string) => at === place || at.startsWith(`${place}/`);

/**
 * The next variants to try after a value failed at `errorPaths`: the innermost choice on an error's path that has an
 * alternative left moves on to it, and the choices made inside it start over. False when none is left.
 */
function nextVariant(variants: Variants, errorPaths: readonly string[]): boolean {
  const places = [...variants.offered.keys()];
  for (let i = places.length - 1; i >= 0; i--) {
    const key = places[i] as string;
    const place = key.slice(0, key.lastIndexOf('#'));
    if (!errorPaths.some((p) => within(place, p))) continue;
    const next = (variants.chosen.get(key) ?? 0) + 1;
    if (next >= (variants.offered.get(key) ?? 0)) continue;
    variants.chosen.set(key, next);
    for (const inner of places.slice(i + 1))
      if (within(place, inner.slice(0, inner.lastIndexOf('#')))) variants.chosen.delete(inner);
    return true;
  }
  return false;
}

/**
 * An example call of the tool that its own input schema accepts (checked as the correct-arguments grader checks it:
 * the same schema check and the same argument matcher), with its expectation in the suite's allowed-value form that
 * `sim:oracle` turns back into exactly that call. Alternatives the schema offers are tried in turn where ajv says the
 * value fails; when none passes, the tool gets no example (the suite leaves the case to a person). `ajv`: one per
 * catalog (starterSuite's), so that nothing compiled outlives it; `catalogExamples`: the examples the catalog's
 * descriptions give per parameter name (catalogExamples()).
 */
export function toolExample(
  tool: ToolDef,
  ajv: Ajv = newAjv(),
  catalogExamples?: ReadonlyMap<string, string>,
): ToolExample {
  const hints: ToolHints = {
    tool: tool.name,
    changesState: changesState(tool),
    ...(catalogExamples ? { catalogExamples } : {}),
  };
  const validate = compile(ajv, tool.inputSchema);
  const variants: Variants = noVariants();
  let problem = '';
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    variants.offered.clear(); // the places are met again, in order, as the value is made
    const args = exampleArgs(tool.inputSchema, hints, variants);
    if (validate && !validate(args)) {
      const errors = validate.errors ?? [];
      problem =
        errors.map(
          (e) => `${e.instancePath.slice(1).replaceAll('/', '.') || '(arguments)'} ${e.message ?? e.keyword}`,
        )[0] ?? '';
      if (
        nextVariant(
          variants,
          errors.map((e) => e.instancePath),
        )
      )
        continue;
      break;
    }
    return confirmed(tool, args);
  }
  return { ok: false, reason: problem || 'no value its schema accepts' };
}

/** The example as the grader will judge it: schema check, then the oracle's call against the expectation. */
function confirmed(tool: ToolDef, args: Record<string, unknown>): ToolExample {
  const check = checkAgainstSchema(tool.inputSchema, args);
  if (check.ok === false) return { ok: false, reason: check.errors[0] ?? 'its schema refuses the example' };
  const expected = Object.fromEntries(Object.entries(args).map(([p, v]) => [p, [allowedForm(v)]]));
  const call = { tool: tool.name, args: expected };
  if (canonicalJson(answerArgs(call)) !== canonicalJson(args)) {
    return { ok: false, reason: 'the example holds an empty string, which an expectation reads as "omitted"' };
  }
  const problems = matchCall({ tool: tool.name, args, rawArgs: JSON.stringify(args) }, call, tool);
  if (problems.length > 0) return { ok: false, reason: problems[0] ?? 'the expectation does not match its example' };
  return { ok: true, args, expected };
}

/** Per parameter name, the first example a tool's description gives for it (`e.g. "Sheet1"`), across the catalog. */
export function catalogExamples(tools: readonly ToolDef[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const tool of tools) {
    const properties = tool.inputSchema.properties;
    if (!properties || typeof properties !== 'object') continue;
    for (const [name, schema] of Object.entries(properties as Record<string, unknown>)) {
      const example = describedExample((schema as { description?: unknown } | null)?.description);
      if (example !== undefined && !found.has(name)) found.set(name, example);
    }
  }
  return found;
}
