// Shared by the action's step scripts: reading inputs (TG_* variables, set by action.yml from its inputs) and writing
// step outputs, the environment of later steps and the step summary (the files GitHub names in GITHUB_OUTPUT,
// GITHUB_ENV and GITHUB_STEP_SUMMARY). Plain Node, no dependency: they run before toolgauge is installed.
import { appendFileSync } from 'node:fs';
import { EOL } from 'node:os';

/** An input as action.yml passed it (an empty string when not given). */
export function input(name, fallback = '') {
  const value = process.env[`TG_${name}`];
  return value === undefined || value === '' ? fallback : value.trim();
}

function appendKeyValue(file, key, value) {
  if (!file) return;
  const text = String(value);
  if (text.includes('\n')) {
    const delimiter = `toolgauge_${Math.random().toString(36).slice(2)}`;
    appendFileSync(file, `${key}<<${delimiter}${EOL}${text}${EOL}${delimiter}${EOL}`);
  } else appendFileSync(file, `${key}=${text}${EOL}`);
}

/** A step output (`steps.<id>.outputs.<key>`). */
export function setOutput(key, value) {
  appendKeyValue(process.env.GITHUB_OUTPUT, key, value);
}

/** An environment variable for the job's later steps. */
export function exportVariable(key, value) {
  appendKeyValue(process.env.GITHUB_ENV, key, value);
  process.env[key] = String(value);
}

export function appendSummary(markdown) {
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, markdown);
}

/** What toolgauge's exit code means (README: Reports and the gate). */
export function verdictOf(code) {
  switch (code) {
    case 0:
      return 'passed';
    case 1:
      return 'gate failed';
    case 2:
      return 'usage or config error';
    case 3:
      return 'infrastructure errors';
    case 130:
      return 'interrupted';
    default:
      return `failed (exit ${code})`;
  }
}

/** What to set when TOOLGAUGE_CMD is missing or malformed (docs/ci.md, "The GitHub Action"). */
const CMD_HELP =
  'it is set by the install step (scripts/action/install.mjs); to run this step on its own, set TOOLGAUGE_CMD to the command as a JSON array of words, e.g. TOOLGAUGE_CMD=\'["npx","toolgauge"]\' (docs/ci.md)';

/**
 * The command that runs toolgauge, as words (install.mjs chose it; TOOLGAUGE_CMD is a JSON array), or why there is
 * none: `{ words }` or `{ problem }`, a line to show instead of a stack trace.
 */
export function toolgaugeCommand(raw = process.env.TOOLGAUGE_CMD) {
  if (!raw) return { problem: `TOOLGAUGE_CMD is not set: ${CMD_HELP}` };
  let words;
  try {
    words = JSON.parse(raw);
  } catch {
    words = undefined;
  }
  if (!Array.isArray(words) || words.length === 0 || !words.every((w) => typeof w === 'string' && w !== '')) {
    return { problem: `TOOLGAUGE_CMD is not a JSON array of words (${JSON.stringify(raw.slice(0, 80))}): ${CMD_HELP}` };
  }
  return { words };
}
