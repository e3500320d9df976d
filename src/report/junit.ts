import type { CaseRecord } from '../contracts/run-log.js';
import type { RunAggregate } from './aggregate.js';

/** XML text and attribute escaping; also drops characters XML 1.0 forbids (model text may hold any). */
export function xmlEscape(text: string): string {
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

interface SuiteBuffer {
  name: string;
  tests: number;
  failures: number;
  errors: number;
  time: number;
  simulated: boolean;
  body: string[];
}

/**
 * junit.xml: one <testsuite> per renderer × provider cell, one <testcase> per case × cell (× repeat), a
 * <failure> naming the failed graders with their reasons, an <error> for infrastructure errors. Follows the
 * common JUnit XML schema (Ant's, as CI servers read it). Keeps one compact line per case, never transcripts.
 * Pure: a function of the run's header and records.
 */
export async function renderJunit(
  agg: RunAggregate,
  records: AsyncIterable<CaseRecord>,
  options: { hostname?: string } = {},
): Promise<string> {
  const suites = new Map<string, SuiteBuffer>();
  for (const c of agg.cells.values()) {
    const name = `${c.renderer} × ${c.provider}`;
    suites.set(`${c.renderer}|${c.provider}`, {
      name,
      tests: 0,
      failures: 0,
      errors: 0,
      time: 0,
      simulated: c.simulated,
      body: [],
    });
  }
  const repeats = agg.repeats;
  for await (const r of records) {
    const key = `${r.renderer}|${r.provider}`;
    let s = suites.get(key);
    if (!s) {
      s = {
        name: `${r.renderer} × ${r.provider}`,
        tests: 0,
        failures: 0,
        errors: 0,
        time: 0,
        simulated: r.simulated,
        body: [],
      };
      suites.set(key, s);
    }
    const secs = r.durationMs / 1000;
    s.tests++;
    s.time += secs;
    const name = token(repeats > 1 ? `${r.suite}/${r.case} #${r.repeat}` : `${r.suite}/${r.case}`);
    const open = `    <testcase name="${xmlAttr(name)}" classname="${xmlAttr(token(`${r.suite}.${r.renderer}.${r.provider}`))}" time="${secs.toFixed(3)}"`;
    if (r.error) {
      s.errors++;
      s.body.push(
        `${open}>\n      <error type="${xmlAttr(r.error.code)}" message="${xmlAttr(r.error.message)}">${xmlEscape(r.error.message)}</error>\n    </testcase>`,
      );
      continue;
    }
    const failed = r.grades.filter((g) => !g.pass);
    if (!failed.length) {
      s.body.push(`${open}/>`);
      continue;
    }
    s.failures++;
    const message = failed.map((g) => `${g.grader}: ${g.reason.replace(/\s+/g, ' ')}`).join('; ');
    const detail = r.grades.map((g) => `${g.pass ? 'PASS' : 'FAIL'} ${g.grader}: ${g.reason}`).join('\n');
    s.body.push(
      `${open}>\n      <failure type="${xmlAttr(failed.map((g) => g.grader).join(','))}" message="${xmlAttr(message)}">${xmlEscape(detail)}</failure>\n    </testcase>`,
    );
  }
  const h = agg.header;
  const timestamp = h.startedAt.slice(0, 19);
  const host = xmlEscape(token(options.hostname ?? 'localhost'));
  const all = [...suites.values()];
  // The common (Ant) schema allows no attributes on <testsuites>; totals live on each <testsuite>.
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>'];
  all.forEach((s, id) => {
    out.push(
      `  <testsuite name="${xmlAttr(token(s.name))}" package="toolgauge" id="${id}" timestamp="${timestamp}" hostname="${host}" tests="${s.tests}" failures="${s.failures}" errors="${s.errors}" skipped="0" time="${s.time.toFixed(3)}">`,
      '    <properties>',
      `      <property name="runId" value="${xmlAttr(h.runId)}"/>`,
      `      <property name="simulated" value="${String(s.simulated)}"/>`,
      '    </properties>',
      ...s.body,
      '    <system-out/>',
      '    <system-err/>',
      '  </testsuite>',
    );
  });
  out.push('</testsuites>', '');
  return out.join('\n');
}
