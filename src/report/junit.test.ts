import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { passingCases, writeSyntheticRun } from '../../tests/helpers/synthetic-run.js';
import { useTempDirs } from '../../tests/helpers/temp-dirs.js';
import { applyGate } from '../gate/gate.js';
import { loadRun } from '../run-log/load-run.js';
import { caseRecords } from '../run-log/reader.js';
import { renderJunit } from './junit.js';

const tempDir = useTempDirs();

const here = dirname(fileURLToPath(import.meta.url));
const XSD = join(here, '..', '..', 'tests', 'helpers', 'junit', 'junit.xsd');
const VALIDATOR = join(here, '..', '..', 'tests', 'helpers', 'junit', 'XsdValidate.java');
const dir = tempDir('tg-junit-');

/** The JDK's XML Schema validator (javax.xml.validation), run as a single-file Java program: one verdict per file. */
function validate(...xmlFiles: string[]): string[] {
  return execFileSync('java', [VALIDATOR, XSD, ...xmlFiles], { encoding: 'utf8' })
    .trim()
    .split('\n');
}

describe('junit.xml', () => {
  it('validates against the common JUnit XML schema, with failed graders, errors, gate checks and hostile text', async () => {
    const runDir = writeSyntheticRun(dir, 'junit', [
      ...passingCases(4, 3, ['parseable', 'correct-arguments']),
      ...passingCases(2, 1, ['parseable'], { provider: 'openai:gpt-4o-mini', renderer: 'names-only' }),
      {
        case: 'hostile',
        pass: { parseable: false },
        reason: 'reply had ]]> & <tags> "quotes" \u0007bell\nand a newline',
      },
      { case: 'boom', pass: {}, error: { code: 'PROVIDER_HTTP', message: 'HTTP 500 <html>' } },
    ]);
    const run = await loadRun(runDir);
    const records = () => caseRecords(run.runLog);
    const file = (name: string, xml: string) => {
      const f = join(dir, name);
      writeFileSync(f, xml);
      return f;
    };

    // A gate that passes although graders failed: no <failure> and no <error> anywhere (a green build is a green
    // junit); the failed graders are listed in the cell's <system-out>, the errored case is <skipped>.
    const passed = applyGate(run.aggregate, { maxInfraErrorRate: 0.5, minPassRate: { parseable: 0.5 } });
    expect(passed.exitCode).toBe(0);
    const green = await renderJunit(run.aggregate, records(), { hostname: 'ci host', judged: passed });
    expect(green).not.toMatch(/<failure|<error/);
    expect(green).toMatch(/name="full-details × sim:oracle"[^>]* tests="6" failures="0" errors="0" skipped="1"/);
    expect(green).toContain('FAIL excel/case-003 parseable: parseable failed for case-003');
    expect(green).toContain(
      '<skipped message="infrastructure error (not graded) PROVIDER_HTTP: HTTP 500 &lt;html&gt;"/>',
    );
    expect(green).toContain('&lt;tags&gt; &quot;quotes&quot; \\x07bell and a newline');
    expect(green).toMatch(/<testsuite name="gate"[^>]* tests="2" failures="0" errors="0"/);
    expect(green).toContain('<testcase name="parseable &gt;= 50.0% over every cell" classname="toolgauge.gate"');

    // A failing gate: exactly its failing checks are failures, each with its gate line and its cases.
    const failed = applyGate(run.aggregate, {
      maxInfraErrorRate: 0.5,
      minPassRate: { parseable: 0.9 },
      thresholds: [{ grader: 'parseable', min: 0.9, provider: 'openai:*' }],
    });
    expect(failed.exitCode).toBe(1);
    const red = await renderJunit(run.aggregate, records(), { hostname: 'ci host', judged: failed });
    expect(red.match(/<failure /g)).toHaveLength(2);
    expect(red).not.toContain('<error');
    expect(red).toMatch(/<testsuite name="gate"[^>]* tests="3" failures="2" errors="0"/);
    expect(red).toContain('<failure type="pass-rate" message="gate: parseable 57.1% (4/7) &lt; 90.0% FAILED">');
    expect(red).toMatch(/3 case\(s\):\nexcel\/case-003\|full-details\|sim:oracle\|0: parseable failed/);
    expect(red).toContain(
      '<failure type="threshold" message="gate: parseable in names-only × openai:gpt-4o-mini 50.0% (1/2)',
    );

    // Too many infrastructure errors: one <error>, naming the errored case.
    const broken = applyGate(run.aggregate, { maxInfraErrorRate: 0 });
    const infra = await renderJunit(run.aggregate, records(), { hostname: 'ci host', judged: broken });
    expect(infra.match(/<error /g)).toHaveLength(1);
    expect(infra).toContain('1 case(s):\nexcel/boom|full-details|sim:oracle|0: PROVIDER_HTTP: HTTP 500 &lt;html&gt;');
    // Nothing judged: an interrupted run says so with an <error>; a run of `grade` has no gate suite.
    const cancelled = await renderJunit(run.aggregate, records(), { interrupted: true });
    expect(cancelled).toContain('<error type="interrupted"');
    expect(await renderJunit(run.aggregate, records())).not.toContain('name="gate"');

    // The validator does reject what the schema forbids (so the check above can fail).
    const broken1 = file('broken1.xml', red.replace('<testsuites>', '<testsuites tests="8">'));
    const broken2 = file('broken2.xml', red.replace(/ hostname="[^"]*"/, ''));
    const verdicts = validate(
      file('green.xml', green),
      file('red.xml', red),
      file('infra.xml', infra),
      file('cancelled.xml', cancelled),
      broken1,
      broken2,
    );
    expect(verdicts.slice(0, 4)).toEqual(['valid', 'valid', 'valid', 'valid']);
    expect(verdicts[4]).toMatch(/^invalid: line 2:.*tests/);
    expect(verdicts[5]).toMatch(/^invalid:.*hostname/);
  });

  it('names repeats and is written by the report writers', async () => {
    const runDir = writeSyntheticRun(
      dir,
      'junit-repeats',
      [0, 1].map((repeat) => ({ case: 'c', repeat, pass: { parseable: repeat === 0 } })),
      { repeats: 2 },
    );
    const run = await loadRun(runDir);
    const xml = await renderJunit(run.aggregate, caseRecords(run.runLog));
    expect(xml).toContain('<testcase name="excel/c #0"');
    expect(xml).toContain('<testcase name="excel/c #1"');
    expect(readFileSync(run.runLog, 'utf8')).toContain('"repeat":1');
  });
});
