/**
 * One suite load for bench/suite-load.ts, in a process of its own (run with --trace-gc): `after` is loadSuite as
 * toolgauge runs it; `before` is what loading did before the fast parser, the located parser (`yaml`) on the whole
 * file and the same zod validation (the semantic checks, which both do, are left out of it). Prints one line:
 * RESULT {"ms":…,"cpuMs":…,"heapBeforeMiB":…,"heapAfterMiB":…,"cases":…}.
 */
// Plain JavaScript on the built modules (dist/src, `npm run build`): what users run, and no TypeScript compiled
// while the load is timed.
import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument } from 'yaml';
import { loadSuite } from '../dist/src/config/load-suite.js';
import { SuiteSchema } from '../dist/src/config/suite-schema.js';

const [mode, file] = process.argv.slice(2);
if ((mode !== 'before' && mode !== 'after') || !file)
  throw new Error('usage: suite-load-child.mjs before|after <file>');

function before(path) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(readFileSync(path, 'utf8'), { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) throw new Error(doc.errors[0]?.message);
  const result = SuiteSchema.safeParse(doc.toJS({ maxAliasCount: 100 }), { reportInput: true });
  if (!result.success) throw new Error(result.error.message);
  return result.data.cases.length;
}

const mib = (b) => Math.round((b / 2 ** 20) * 10) / 10;
const heapBeforeMiB = mib(process.memoryUsage().heapUsed);
const t0 = performance.now();
const c0 = process.cpuUsage();
const cases = mode === 'before' ? before(file) : loadSuite(file).cases.count;
const c1 = process.cpuUsage(c0);
const ms = performance.now() - t0;
// CPU time of the process (all its threads, the garbage collector's included): less at the mercy of a shared machine.
const cpuMs = (c1.user + c1.system) / 1000;
const heapAfterMiB = mib(process.memoryUsage().heapUsed);
process.stdout.write(`RESULT ${JSON.stringify({ ms, cpuMs, heapBeforeMiB, heapAfterMiB, cases })}\n`);
