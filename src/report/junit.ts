import type { RunAggregate } from '../run-log/aggregate.js';
import type { CaseRecord } from '../run-log/schema.js';

/** Anything xmlEscape changes: XML's special characters, characters XML 1.0 forbids, and any surrogate. */
const XML_SUSPECT = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/**
 * XML text and attribute escaping; also drops characters XML 1.0 forbids (model text may hold any). One scan
 * returns most strings as they are (nothing to escape); the rest go through every replacement.
 */
export function xmlEscape(text: string): string {
  if (!XML_SUSPECT.test(text)) return text;
  return text
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

/** One <testcase> element and what it counts as. */
export interface JunitCase {
  xml: string;
  outcome: 'ok' | 'failure' | 'error';
  secs: number;
}

/** The <testcase> of one record (`repeats` > 1 names the repeat). Pure. */
export function junitTestcase(r: CaseRecord, repeats: number): JunitCase {
  const secs = r.durationMs / 1000;
  const name = token(repeats > 1 ? `${r.suite}/${r.case} #${r.repeat}` : `${r.suite}/${r.case}`);
  const open = `    <testcase name="${xmlAttr(name)}" classname="${xmlAttr(token(`${r.suite}.${r.renderer}.${r.provider}`))}" time="${secs.toFixed(3)}"`;
  if (r.error) {
    return {
      outcome: 'error',
      secs,
      xml: `${open}>\n      <error type="${xmlAttr(r.error.code)}" message="${xmlAttr(r.error.message)}">${xmlEscape(r.error.message)}</error>\n    </testcase>`,
    };
  }
  const failed = r.grades.filter((g) => !g.pass);
  if (!failed.length) return { outcome: 'ok', secs, xml: `${open}/>` };
  const message = failed.map((g) => `${g.grader}: ${g.reason.replace(/\s+/g, ' ')}`).join('; ');
  const detail = r.grades.map((g) => `${g.pass ? 'PASS' : 'FAIL'} ${g.grader}: ${g.reason}`).join('\n');
  return {
    outcome: 'failure',
    secs,
    xml: `${open}>\n      <failure type="${xmlAttr(failed.map((g) => g.grader).join(','))}" message="${xmlAttr(message)}">${xmlEscape(detail)}</failure>\n    </testcase>`,
  };
}

/** Counts of one <testsuite> (one renderer × provider cell). */
export interface JunitSuiteCounts {
  name: string;
  simulated: boolean;
  tests: number;
  failures: number;
  errors: number;
  time: number;
}

export function newJunitSuite(renderer: string, provider: string, simulated: boolean): JunitSuiteCounts {
  return { name: `${renderer} × ${provider}`, simulated, tests: 0, failures: 0, errors: 0, time: 0 };
}

export function countJunitCase(s: JunitSuiteCounts, c: JunitCase): void {
  s.tests++;
  s.time += c.secs;
  if (c.outcome === 'failure') s.failures++;
  else if (c.outcome === 'error') s.errors++;
}

export const JUNIT_PROLOGUE = '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n';
export const JUNIT_EPILOGUE = '</testsuites>\n';

/** The opening of a <testsuite> (its counts go in the header, so it is written once they are known). Pure. */
export function junitSuiteOpen(agg: RunAggregate, s: JunitSuiteCounts, id: number, hostname = 'localhost'): string {
  const h = agg.header;
  const timestamp = h.startedAt.slice(0, 19);
  const host = xmlEscape(token(hostname));
  // The common (Ant) schema allows no attributes on <testsuites>; totals live on each <testsuite>.
  return [
    `  <testsuite name="${xmlAttr(token(s.name))}" package="toolgauge" id="${id}" timestamp="${timestamp}" hostname="${host}" tests="${s.tests}" failures="${s.failures}" errors="${s.errors}" skipped="0" time="${s.time.toFixed(3)}">`,
    '    <properties>',
    `      <property name="runId" value="${xmlAttr(h.runId)}"/>`,
    `      <property name="simulated" value="${String(s.simulated)}"/>`,
    '    </properties>',
    '',
  ].join('\n');
}

export const JUNIT_SUITE_CLOSE = '    <system-out/>\n    <system-err/>\n  </testsuite>\n';

/**
 * junit.xml: one <testsuite> per renderer × provider cell, one <testcase> per case × cell (× repeat), a
 * <failure> naming the failed graders with their reasons, an <error> for infrastructure errors. Follows the
 * common JUnit XML schema (Ant's, as CI servers read it). Keeps one compact line per case, never transcripts.
 * Pure: a function of the run's header and records. (The report writers stream the same elements to the file:
 * report-sink.ts.)
 */
export async function renderJunit(
  agg: RunAggregate,
  records: AsyncIterable<CaseRecord>,
  options: { hostname?: string } = {},
): Promise<string> {
  const suites = new Map<string, { counts: JunitSuiteCounts; body: string[] }>();
  for (const c of agg.cells.values()) {
    suites.set(`${c.renderer}|${c.provider}`, { counts: newJunitSuite(c.renderer, c.provider, c.simulated), body: [] });
  }
  for await (const r of records) {
    const key = `${r.renderer}|${r.provider}`;
    let s = suites.get(key);
    if (!s) {
      s = { counts: newJunitSuite(r.renderer, r.provider, r.simulated), body: [] };
      suites.set(key, s);
    }
    const tc = junitTestcase(r, agg.repeats);
    countJunitCase(s.counts, tc);
    s.body.push(`${tc.xml}\n`);
  }
  let id = 0;
  const out: string[] = [JUNIT_PROLOGUE];
  for (const s of suites.values()) {
    out.push(junitSuiteOpen(agg, s.counts, id++, options.hostname), ...s.body, JUNIT_SUITE_CLOSE);
  }
  out.push(JUNIT_EPILOGUE);
  return out.join('');
}
