// Step 2 of the toolgauge action: `toolgauge eval` (one shard of it with TG_SHARD i/n) or `toolgauge merge` of the
// shards' run folders found under TG_SHARDS_PATH. It never fails the step itself: its outputs (exit-code, verdict,
// run-dir, artifact-name) feed the upload, summary and gate steps, which must run whatever the result.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { input, setOutput, toolgaugeCommand, verdictOf } from './action-io.mjs';

const command = input('COMMAND', 'eval');
const out = resolve(input('OUT', 'toolgauge-reports'));
const shard = input('SHARD');
const extra = input('ARGS').split(/\s+/).filter(Boolean);

/** A bad input: said as an error annotation, and exit code 2 for the summary and gate steps (this step ends 0). */
function refuse(message) {
  console.error(`::error::toolgauge action: ${message}`);
  setOutput('exit-code', 2);
  setOutput('verdict', verdictOf(2));
  process.exit(0);
}

/** The run folders (holding run.jsonl) under `dir`, a few levels down (artifact folder / run-id). */
function runDirs(dir, depth = 3) {
  if (!existsSync(dir)) return [];
  if (existsSync(join(dir, 'run.jsonl'))) return [dir];
  if (depth === 0) return [];
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((p) => statSync(p).isDirectory())
    .sort()
    .flatMap((p) => runDirs(p, depth - 1));
}

let args;
let runDir;
if (command === 'eval') {
  if (shard && !/^\d+\/\d+$/.test(shard)) {
    refuse(`input shard '${shard}' is not i/n (e.g. 2/3)`);
  }
  args = ['eval', '-c', input('CONFIG', 'toolgauge.config.yaml'), '--out', out, '-q'];
  if (shard) args.push('--shard', shard);
} else if (command === 'merge') {
  const from = resolve(input('SHARDS_PATH', 'shards'));
  const shards = runDirs(from);
  if (shards.length === 0) {
    refuse(`no run folder (with run.jsonl) under ${from} to merge`);
  }
  runDir = join(out, 'merged');
  args = ['merge', ...shards, '--out', runDir];
} else {
  refuse(`input command '${command}' is not eval or merge`);
}
args.push(...extra);

mkdirSync(out, { recursive: true });
const before = new Set(runDirs(out, 1));
const cmd = toolgaugeCommand();
if (cmd.problem) refuse(cmd.problem);
const [bin, ...rest] = cmd.words;
// The summary step writes the step summary (with the verdict on top): the CLI is not to append its own as well.
const env = { ...process.env };
delete env.GITHUB_STEP_SUMMARY;
console.log(`toolgauge action: ${[bin, ...rest, ...args].join(' ')}`);
const result = spawnSync(bin, [...rest, ...args], { stdio: 'inherit', env });
const code = result.status ?? (result.signal === 'SIGINT' ? 130 : 3);
if (command === 'eval') runDir = runDirs(out, 1).find((d) => !before.has(d));

setOutput('exit-code', code);
setOutput('verdict', verdictOf(code));
setOutput('run-dir', runDir && existsSync(runDir) ? runDir : '');
setOutput('artifact-name', command === 'eval' && shard ? `toolgauge-shard-${shard.split('/')[0]}` : 'toolgauge-report');
console.log(`toolgauge action: ${verdictOf(code)} (exit ${code})${runDir ? ` → ${runDir}` : ''}`);
