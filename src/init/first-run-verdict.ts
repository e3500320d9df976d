import type { ToolErrorNote } from '../run-log/aggregate.js';
import { visibleLine } from '../util/visible-text.js';

/** What init's first eval showed, as its closing lines need it. */
export interface FirstRun {
  exitCode: number;
  /** Cases run, and those that hit an infrastructure error. */
  cases: number;
  infraErrors: number;
  /** Tool calls executed, and those whose result was an error (`isError`). */
  toolCalls: { calls: number; errors: number };
  toolErrors: readonly ToolErrorNote[];
}

/** Files named in the closing lines, as the user should type them. */
export interface InitFiles {
  suite: string;
  config: string;
  workflow: string;
}

/** How many different tool errors the closing lines quote. */
const QUOTED = 3;

/**
 * The verdict on the wiring: "works" only when the gate passed and at most half of the tool calls returned errors
 * (a server that refuses most of its example calls has not been shown to work, whatever the graders say), with the
 * tool errors counted and the first few quoted (tool and message, made safe for a terminal).
 */
export function firstRunVerdict(run: FirstRun, files: InitFiles): string[] {
  const { calls, errors } = run.toolCalls;
  const lines: string[] = [];
  const erred = `${errors} of ${calls} tool calls returned errors`;
  if (run.exitCode !== 0) {
    lines.push(
      `The first eval did not pass (exit ${run.exitCode}): see the summary above and the gate's lines.${errors > 0 ? ` ${erred}.` : ''}`,
    );
  } else if (calls === 0) {
    lines.push('The first eval passed, but no tool was called: the wiring to the server is not proven.');
  } else if (errors * 2 > calls) {
    lines.push(
      `The first eval reached the server, but ${erred}: the wiring is not proven until the calls succeed. The example arguments (or the server's folder or data) are the usual cause.`,
    );
  } else if (errors > 0) {
    lines.push(`The wiring works: the server answered, though ${erred}.`);
  } else {
    lines.push(`The wiring works: every one of the ${calls} tool calls returned a result.`);
  }
  // each renderer runs the same example call: its error is quoted once, so the lines quoted are different errors
  const quoted = new Set<string>();
  for (const e of run.toolErrors) {
    if (quoted.size === QUOTED) break;
    const line = `  ${visibleLine(e.tool, 80)}: ${visibleLine(e.message)}`;
    if (quoted.has(line)) continue;
    quoted.add(line);
    lines.push(line);
  }
  if (errors > 0)
    lines.push(`  (edit the arguments of those cases in ${files.suite}; summary.md lists the first errors)`);
  if (run.infraErrors > 0) {
    lines.push(
      `${run.infraErrors} of ${run.cases} cases hit an infrastructure error (the server failed or timed out): see the summary's "Infrastructure errors".`,
    );
  }
  return lines;
}

/** The tools the starter suite has no case for (none, or one line naming them). */
export function skippedTools(skipped: readonly string[], files: InitFiles): string[] {
  if (skipped.length === 0) return [];
  return [
    `${skipped.length} tool(s) got no case, as no example their input schema accepts could be made: ${skipped.map((t) => visibleLine(t, 60)).join(', ')} (commented out in ${files.suite}, to write by hand).`,
  ];
}

/** What to do after init, in order; `fromRepository`: the workflow installs toolgauge from a placeholder address. */
export function nextSteps(files: InitFiles, fromRepository: boolean): string[] {
  return [
    'Next steps:',
    `  1. Write the cases: in ${files.suite}, replace each TODO with the prompt a user would send and the arguments it asks for, then remove its \`todo\` tag (toolgauge eval -c ${files.config} --tag todo runs the cases still to write).`,
    `  2. Add your model to ${files.config} (docs/providers.md has a recipe per server; keys come from the environment).`,
    `  3. Check the setup: toolgauge doctor -c ${files.config}`,
    `  4. Run it: toolgauge eval -c ${files.config}, then make that run the baseline: toolgauge baseline update <run-dir> -c ${files.config}`,
    fromRepository
      ? `  5. CI: ${files.workflow} runs it on every pull request; it installs toolgauge from its repository: replace <owner> there, or add toolgauge to your devDependencies (docs/ci.md).`
      : `  5. CI: ${files.workflow} runs it on every pull request (npm ci, then toolgauge's action; docs/ci.md).`,
  ];
}
