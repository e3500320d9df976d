// Compares two run folders written by `toolgauge eval` (or any command that makes a run): the same records, reports
// and verdict, with what differs from one run to the next by nature set aside: timestamps, durations and latencies,
// run ids, the git commit, the host, and the paths of the checkout and the output folder.
//
//   node scripts/compare-runs.mjs <run-dir-a> <run-dir-b>
//
// Reads run.jsonl (records decoded by this checkout's built run-log reader, dist/, so packed format-2 logs compare by
// content; case records matched by suite, case, strategy, provider and repeat, whatever order they finished in),
// summary.md, compare.md, results.csv (rows in any order), junit.xml (lines in any order within the file) and run.json.
// report.html is left out: its case data is compressed and would compare equal exactly when run.jsonl does.
// Prints one line per file and the first differences; exit code 0 when every file matches, 1 when one differs, 2 on a
// usage error. docs/architecture.md ("Checking that a change keeps the records") says when to use it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const VOLATILE_KEYS = new Set([
  'startedAt',
  'finishedAt',
  'runId',
  'gitCommit',
  'configFile',
  'latencyMs',
  'durationMs',
  'elapsedMs',
  'hostname',
]);
const MAX_DIFFS = 12;

const [dirA, dirB] = process.argv.slice(2);
if (!dirA || !dirB) {
  console.error('usage: node scripts/compare-runs.mjs <run-dir-a> <run-dir-b>');
  process.exit(2);
}
for (const dir of [dirA, dirB]) {
  if (!existsSync(join(dir, 'run.jsonl'))) {
    console.error(`compare-runs: ${dir}: no run.jsonl (pass a run folder, reports/<run-id>/)`);
    process.exit(2);
  }
}

const readerFile = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'src', 'run-log', 'reader.js');
if (!existsSync(readerFile)) {
  console.error('compare-runs: dist/ is not built; run npm run build first');
  process.exit(2);
}
const { readRunLog } = await import(pathToFileURL(readerFile).href);

/** The run's own names (run id, checkout, output folder), replaced by placeholders wherever they appear in text. */
function placeholdersOf(header) {
  const pairs = [[header.runId, '<run-id>']];
  if (typeof header.config?.out === 'string') pairs.push([resolve(header.config.out), '<out>']);
  if (typeof header.configFile === 'string') pairs.push([dirname(resolve(header.configFile)), '<checkout>']);
  return pairs
    .filter(([from]) => typeof from === 'string' && from.length > 1)
    .sort((a, b) => b[0].length - a[0].length);
}

function replaceNames(text, names) {
  let out = text;
  for (const [from, to] of names) out = out.split(from).join(to);
  return out;
}

/** A copy of `value` with the volatile keys left out and the run's names replaced in every string. */
function normalize(value, names) {
  if (typeof value === 'string') return replaceNames(value, names);
  if (Array.isArray(value)) return value.map((v) => normalize(v, names));
  if (value && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) if (!VOLATILE_KEYS.has(k)) out[k] = normalize(v, names);
    return out;
  }
  return value;
}

/** Up to MAX_DIFFS paths where two values differ. */
function differences(a, b, path = '', out = []) {
  if (out.length >= MAX_DIFFS) return out;
  if (a === b) return out;
  const objects = a && b && typeof a === 'object' && typeof b === 'object';
  if (!objects || Array.isArray(a) !== Array.isArray(b)) {
    out.push(`${path || '(value)'}: ${JSON.stringify(a)?.slice(0, 160)} ≠ ${JSON.stringify(b)?.slice(0, 160)}`);
    return out;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) differences(a[k], b[k], Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`, out);
  return out;
}

async function runLog(dir) {
  const records = [];
  for await (const r of readRunLog(join(dir, 'run.jsonl'))) records.push(r);
  const header = records.find((r) => r.type === 'header');
  return { header, records };
}

const keyOf = (r) => [r.suite, r.case, r.renderer, r.strategy ?? '', r.provider, r.repeat].join('|');

/** Case records by key (a list per key, in a stable order), the header and the footer, normalized. */
function byKey(records, names) {
  const cases = new Map();
  const others = {};
  for (const r of records) {
    const n = normalize(r, names);
    if (r.type !== 'case') {
      others[r.type] = n;
      continue;
    }
    const list = cases.get(keyOf(r)) ?? [];
    list.push(n);
    cases.set(keyOf(r), list);
  }
  for (const list of cases.values()) list.sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1));
  return { cases, others };
}

const results = [];
function report(file, diffs, detail = '') {
  results.push(diffs.length === 0);
  console.log(`${diffs.length === 0 ? 'same' : 'DIFFERENT'}  ${file}${detail ? ` (${detail})` : ''}`);
  for (const d of diffs.slice(0, MAX_DIFFS)) console.log(`    ${d}`);
}

const [logA, logB] = await Promise.all([runLog(dirA), runLog(dirB)]);
const namesA = placeholdersOf(logA.header);
const namesB = placeholdersOf(logB.header);

{
  const a = byKey(logA.records, namesA);
  const b = byKey(logB.records, namesB);
  const diffs = differences(a.others, b.others, 'run.jsonl');
  for (const key of new Set([...a.cases.keys(), ...b.cases.keys()])) {
    if (diffs.length >= MAX_DIFFS) break;
    differences(a.cases.get(key), b.cases.get(key), `case ${key}`, diffs);
  }
  const count = (m) => [...m.values()].reduce((n, l) => n + l.length, 0);
  report('run.jsonl', diffs, `${count(a.cases)} and ${count(b.cases)} case records`);
}

for (const file of ['run.json']) {
  const a = normalize(JSON.parse(readFileSync(join(dirA, file), 'utf8')), namesA);
  const b = normalize(JSON.parse(readFileSync(join(dirB, file), 'utf8')), namesB);
  report(file, differences(a, b, file));
}

/** Text files: the run's names replaced, then per-format volatile parts; `unordered` compares sorted lines. */
function textDiff(file, clean, unordered) {
  const pathA = join(dirA, file);
  const pathB = join(dirB, file);
  if (!existsSync(pathA) && !existsSync(pathB)) return;
  if (!existsSync(pathA) || !existsSync(pathB)) {
    report(file, [`present in ${existsSync(pathA) ? dirA : dirB} only`]);
    return;
  }
  const lines = (path, names) => {
    const out = clean(replaceNames(readFileSync(path, 'utf8'), names)).split('\n');
    return unordered ? out.sort() : out;
  };
  const a = lines(pathA, namesA);
  const b = lines(pathB, namesB);
  const diffs = [];
  for (let i = 0; i < Math.max(a.length, b.length) && diffs.length < MAX_DIFFS; i++) {
    if (a[i] !== b[i])
      diffs.push(`line ${i + 1}: ${JSON.stringify(a[i])?.slice(0, 200)} ≠ ${JSON.stringify(b[i])?.slice(0, 200)}`);
  }
  report(file, diffs, `${a.length} and ${b.length} lines${unordered ? ', in any order' : ''}`);
}

// summary.md: the bodies of its "First failures" and "First tool errors" sections list the first records to finish,
// which at a concurrency above 1 differ between any two runs of one commit; their headings (with the counts) stay.
textDiff(
  'summary.md',
  (t) => t.replace(/^(## First [^\n]*\n)[\s\S]*?(?=^## |(?![\s\S]))/gm, '$1<first records to finish>\n'),
  false,
);
textDiff('compare.md', (t) => t, false);
// results.csv: the last column is the case's duration_ms
textDiff('results.csv', (t) => t.replace(/,\d+$/gm, ',<ms>'), true);
// junit.xml: times, the timestamp and the host of each suite
textDiff('junit.xml', (t) => t.replace(/ (time|timestamp|hostname)="[^"]*"/g, ' $1="…"'), true);

const same = results.every(Boolean);
console.log(same ? 'the two runs hold the same records and reports' : 'the runs differ');
process.exitCode = same ? 0 : 1;
