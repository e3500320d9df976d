import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { passingCases, writeSyntheticRun } from '../../tests/helpers/synthetic-run.js';
import { useTempDirs } from '../../tests/helpers/temp-dirs.js';
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
  it('validates against the common JUnit XML schema, with failures, errors and hostile text', async () => {
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
    const xml = await renderJunit(run.aggregate, caseRecords(run.runLog), { hostname: 'ci host' });
    const file = join(dir, 'junit.xml');
    writeFileSync(file, xml);

    expect(xml).toContain('<testsuite name="full-details × sim:oracle" package="toolgauge" id="0"');
    expect(xml).toMatch(/name="full-details × sim:oracle"[^>]* tests="6" failures="2" errors="1"/);
    expect(xml).toContain(
      '<failure type="parseable,correct-arguments" message="parseable: parseable failed for case-003;',
    );
    expect(xml).toContain('<error type="PROVIDER_HTTP" message="HTTP 500 &lt;html&gt;">');
    expect(xml).toContain('&lt;tags&gt; &quot;quotes&quot; \uFFFDbell');
    expect(xml.match(/<testcase /g)).toHaveLength(8);

    // The validator does reject what the schema forbids (so the check above can fail).
    const broken1 = join(dir, 'broken1.xml');
    const broken2 = join(dir, 'broken2.xml');
    writeFileSync(broken1, xml.replace('<testsuites>', '<testsuites tests="8">'));
    writeFileSync(broken2, xml.replace(/ hostname="[^"]*"/, ''));
    const [ok, bad1, bad2] = validate(file, broken1, broken2);
    expect(ok).toBe('valid');
    expect(bad1).toMatch(/^invalid: line 2:.*tests/);
    expect(bad2).toMatch(/^invalid:.*hostname/);
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
