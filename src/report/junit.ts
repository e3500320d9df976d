import type { RunAggregate } from '../run-log/aggregate.js';
import type { CaseRecord } from '../run-log/schema.js';
import { visible } from '../util/visible-text.js';
import type { CompareResult } from './compare.js';
import { FailingCases, type JudgedGate } from './junit-gate.js';

/** Anything xmlEscape changes: XML's special characters, control characters, what XML 1.0 forbids, any surrogate. */
const XML_SUSPECT =
  /[&<>"'\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\uD800-\uDFFF\uFFFE\uFFFF]/;

/**
 * XML text and attribute escaping. Control characters (C0 but tab and line feed, DEL, C1, bidirectional controls)
 * are shown as `\x1b`-style text, as on the terminal, so the file shown with `cat` acts on nothing; what XML 1.0
 * forbids besides (U+FFFE, U+FFFF, a lone surrogate) becomes U+FFFD. One scan returns most strings as they are
 * (nothing to escape); the rest go through every replacement.
 */
export function xmlEscape(text: string): string {
  if (!XML_SUSPECT.test(text)) return text;
  return visible(text)
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** For attribute values: newlines too, so parsers keep them (attribute normalisation would turn them to spaces). */
function xmlAttr(text: string): string {
  return xmlEscape(text).replace(/\n/g, '&#10;');
}

/** xs:token: no leading/trailing or repeated whitespace, no newlines. */
function token(text: string): string {
  return text.replace(/\s+/g, ' ').trim() || '-';
}

/** One <testcase> element, what it counts as, and the lines it adds to its suite's <system-out>. */
export interface JunitCase {
  xml: string;
  outcome: 'ok' | 'failed-graders' | 'skipped';
  secs: number;
  /** `FAIL <case> <grader>: <reason>` per failed grader, or `ERROR <case>: <code>: <message>`; '' when it passed. */
  out: string;
}

/**
 * The <testcase> of one record (`repeats` > 1 names the repeat). A case's grades are measurements, not the build's
 * verdict: a failed grader is listed in the suite's <system-out>, never as a <failure> (junit.xml's failures are the
 * gate's failed checks only, so a CI test viewer is red exactly when the gate failed). An infrastructure error was
 * not graded: the case is <skipped>, with the error as its message. Pure.
 */
export function junitTestcase(r: CaseRecord, repeats: number): JunitCase {
  const secs = r.durationMs / 1000;
  const name = token(repeats > 1 ? `${r.suite}/${r.case} #${r.repeat}` : `${r.suite}/${r.case}`);
  const open = `    <testcase name="${xmlAttr(name)}" classname="${xmlAttr(token(`${r.suite}.${r.renderer}.${r.provider}`))}" time="${secs.toFixed(3)}"`;
  if (r.error) {
    const message = `infrastructure error (not graded) ${r.error.code}: ${r.error.message}`;
    return {
      outcome: 'skipped',
      secs,
      xml: `${open}>\n      <skipped message="${xmlAttr(message)}"/>\n    </testcase>`,
      out: `ERROR ${name}: ${r.error.code}: ${oneLine(r.error.message)}\n`,
    };
  }
  const failed = r.grades.filter((g) => !g.pass);
  const out = failed.map((g) => `FAIL ${name} ${g.grader}: ${oneLine(g.reason)}\n`).join('');
  return { outcome: failed.length ? 'failed-graders' : 'ok', secs, xml: `${open}/>`, out };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Counts of one <testsuite> (one renderer × provider cell). */
export interface JunitSuiteCounts {
  name: string;
  simulated: boolean;
  tests: number;
  /** Cases with a failed grader (listed in <system-out>; not <failure>s). */
  failedGraders: number;
  skipped: number;
  time: number;
}

export function newJunitSuite(renderer: string, provider: string, simulated: boolean): JunitSuiteCounts {
  return { name: `${renderer} × ${provider}`, simulated, tests: 0, failedGraders: 0, skipped: 0, time: 0 };
}

export function countJunitCase(s: JunitSuiteCounts, c: JunitCase): void {
  s.tests++;
  s.time += c.secs;
  if (c.outcome === 'failed-graders') s.failedGraders++;
  else if (c.outcome === 'skipped') s.skipped++;
}

export const JUNIT_PROLOGUE = '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n';
export const JUNIT_EPILOGUE = '</testsuites>\n';

/** A <testsuite>'s opening and properties (its counts go in the tag, so it is written once they are known). */
function suiteOpen(
  agg: RunAggregate,
  name: string,
  counts: { tests: number; failures: number; errors: number; skipped: number; time: number },
  id: number,
  hostname: string,
  properties: Record<string, string>,
): string {
  const timestamp = agg.header.startedAt.slice(0, 19);
  const host = xmlEscape(token(hostname));
  // The common (Ant) schema allows no attributes on <testsuites>; totals live on each <testsuite>.
  return [
    `  <testsuite name="${xmlAttr(token(name))}" package="toolgauge" id="${id}" timestamp="${timestamp}" hostname="${host}" tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${counts.time.toFixed(3)}">`,
    '    <properties>',
    ...Object.entries(properties).map(([k, v]) => `      <property name="${xmlAttr(k)}" value="${xmlAttr(v)}"/>`),
    '    </properties>',
    '',
  ].join('\n');
}

/** The opening of a cell's <testsuite>: no failures and no errors (those are the gate's). Pure. */
export function junitSuiteOpen(agg: RunAggregate, s: JunitSuiteCounts, id: number, hostname = 'localhost'): string {
  return suiteOpen(agg, s.name, { ...s, failures: 0, errors: 0 }, id, hostname, {
    runId: agg.header.runId,
    simulated: String(s.simulated),
    casesWithFailedGraders: String(s.failedGraders),
  });
}

/** Opens a cell suite's <system-out>, whose text (the JunitCase `out` lines, escaped) follows. */
export const JUNIT_OUT_OPEN = '    <system-out>';
export const JUNIT_SUITE_CLOSE = '</system-out>\n    <system-err/>\n  </testsuite>\n';

/**
 * The `gate` <testsuite>, last: one <testcase> per check the gate made, a <failure> for each failed threshold or
 * regression and an <error> for too many infrastructure errors, each naming its gate line and its cases. A run
 * nothing judged: a cancelled run gets one <error> (it ended with exit code 130), a run of `grade` (no gate) no
 * suite at all. Pure.
 */
export function junitGateSuite(
  agg: RunAggregate,
  end: { judged?: JudgedGate; interrupted: boolean; comparison?: CompareResult | null },
  failing: FailingCases,
  id: number,
  hostname = 'localhost',
): string {
  const cases: string[] = [];
  let failures = 0;
  let errors = 0;
  const testcase = (name: string, problem = '') =>
    `    <testcase name="${xmlAttr(token(name))}" classname="toolgauge.gate" time="0.000"${problem ? `>\n      ${problem}\n    </testcase>` : '/>'}`;
  if (end.judged) {
    for (const c of end.judged.checks) {
      if (c.ok) {
        cases.push(testcase(c.name));
        continue;
      }
      const tag = c.kind === 'infrastructure' ? 'error' : 'failure';
      if (tag === 'error') errors++;
      else failures++;
      const detail = xmlEscape(failing.detail(c, end.comparison));
      cases.push(testcase(c.name, `<${tag} type="${c.kind}" message="${xmlAttr(c.line)}">${detail}</${tag}>`));
    }
  } else if (end.interrupted) {
    errors++;
    const message = 'the run was interrupted before every case finished: the gate was not judged';
    cases.push(testcase('run finished', `<error type="interrupted" message="${xmlAttr(message)}"/>`));
  } else return '';
  const counts = { tests: cases.length, failures, errors, skipped: 0, time: 0 };
  const properties = { runId: agg.header.runId, ...(end.judged ? { exitCode: String(end.judged.exitCode) } : {}) };
  return `${suiteOpen(agg, 'gate', counts, id, hostname, properties)}${cases.join('\n')}\n    <system-out/>\n    <system-err/>\n  </testsuite>\n`;
}

/**
 * junit.xml: one <testsuite> per renderer × provider cell, one <testcase> per case × cell (× repeat), its failed
 * graders in the suite's <system-out> and its infrastructure error as <skipped>; then the `gate` suite, whose failed
 * checks are the file's only failures (junitGateSuite). Follows the common JUnit XML schema (Ant's, as CI servers
 * read it). Keeps one compact line per case, never transcripts. Pure: a function of the run's header, records and
 * verdict. (The report writers stream the same elements to the file: reporters/junit-reporter.ts.)
 */
export async function renderJunit(
  agg: RunAggregate,
  records: AsyncIterable<CaseRecord>,
  options: { hostname?: string; judged?: JudgedGate; interrupted?: boolean; comparison?: CompareResult | null } = {},
): Promise<string> {
  const suites = new Map<string, { counts: JunitSuiteCounts; body: string[]; out: string[] }>();
  const failing = new FailingCases();
  for (const c of agg.cells.values()) {
    suites.set(`${c.renderer}|${c.provider}`, {
      counts: newJunitSuite(c.renderer, c.provider, c.simulated),
      body: [],
      out: [],
    });
  }
  for await (const r of records) {
    const key = `${r.renderer}|${r.provider}`;
    let s = suites.get(key);
    if (!s) {
      s = { counts: newJunitSuite(r.renderer, r.provider, r.simulated), body: [], out: [] };
      suites.set(key, s);
    }
    const tc = junitTestcase(r, agg.repeats);
    countJunitCase(s.counts, tc);
    failing.add(r);
    s.body.push(`${tc.xml}\n`);
    if (tc.out) s.out.push(xmlEscape(tc.out));
  }
  let id = 0;
  const out: string[] = [JUNIT_PROLOGUE];
  for (const s of suites.values()) {
    out.push(
      junitSuiteOpen(agg, s.counts, id++, options.hostname),
      ...s.body,
      JUNIT_OUT_OPEN,
      ...s.out,
      JUNIT_SUITE_CLOSE,
    );
  }
  const end = {
    interrupted: options.interrupted ?? false,
    ...(options.judged ? { judged: options.judged } : {}),
    ...(options.comparison !== undefined ? { comparison: options.comparison } : {}),
  };
  out.push(junitGateSuite(agg, end, failing, id, options.hostname));
  out.push(JUNIT_EPILOGUE);
  return out.join('');
}
