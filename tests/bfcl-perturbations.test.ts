import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerArgs } from '../src/config/expected-answer.js';
import { loadSuite, wholeSuite } from '../src/config/load-suite.js';
import type { SuiteCase } from '../src/contracts/suite.js';
import { graders } from '../src/graders/index.js';
import { UNSATISFIABLE } from '../src/import/bfcl-import.js';
import { ROOT } from './cli-helpers.js';
import { transcriptOf } from './helpers/grader-fixtures.js';
import { pythonCallList } from './helpers/python-call-list.js';

const CATEGORIES = ['simple_python', 'multiple', 'parallel', 'live_simple'] as const;
const suites = Object.fromEntries(
  [...CATEGORIES, 'irrelevance'].map((c) => [c, wholeSuite(loadSuite(join(ROOT, 'suites', 'bfcl', `${c}.yaml`)))]),
);

function caseOf(category: string, id: string): SuiteCase {
  const c = suites[category]?.cases.find((x) => x.id === id);
  if (!c) throw new Error(`no case ${category}/${id}`);
  return c;
}

/** correct-arguments on one python-call reply, with the case's own functions as the offered tools. */
function verdict(c: SuiteCase, reply: string): boolean | undefined {
  const tools = (c.functions ?? []).map((f) => ({ ...f, server: 'inline' }));
  const transcript = transcriptOf([{ text: reply }], 'python-call');
  return graders['correct-arguments'].grade({ case: c, transcript, protocol: 'python-call', tools })?.pass;
}

const answerOf = (c: SuiteCase) => (c.expect.calls ?? []).map((e) => ({ tool: e.tool, args: answerArgs(e) }));

describe('imported BFCL suites: answers built from the possible answers', () => {
  for (const category of CATEGORIES) {
    it(`${category}: every satisfiable case passes correct-arguments`, () => {
      const cases = suites[category]?.cases ?? [];
      const failing = cases
        .filter((c) => !c.tags?.includes(UNSATISFIABLE))
        .filter((c) => verdict(c, pythonCallList(answerOf(c))) !== true)
        .map((c) => c.id);
      expect(failing).toEqual([]);
      expect(cases.length).toBeGreaterThan(100);
    });
  }
  it('the two unsatisfiable ground truths are tagged (required parameters with no allowed value)', () => {
    const tagged = Object.values(suites).flatMap((s) =>
      s.cases.filter((c) => c.tags?.includes(UNSATISFIABLE)).map((c) => c.id),
    );
    expect(tagged).toEqual(['live_simple_106-63-0', 'live_simple_112-68-0']);
  });
  it('irrelevance cases expect no call', () => {
    expect(suites.irrelevance?.cases.every((c) => c.expect.no_call === true)).toBe(true);
  });
});

// Each perturbation gets the verdict BFCL's AST checker gives (its error type named in the test title).
describe('perturbed answers get the verdict of BFCL rules', () => {
  const triangle = caseOf('simple_python', 'simple_python_0'); // base [10], height [5], unit ["units", ""]
  it('the reference answer passes, with or without the optional unit', () => {
    expect(verdict(triangle, '[calculate_triangle_area(base=10, height=5, unit="units")]')).toBe(true);
    expect(verdict(triangle, '[calculate_triangle_area(base=10, height=5)]')).toBe(true);
  });
  it('wrong value fails (value_error)', () => {
    expect(verdict(triangle, '[calculate_triangle_area(base=11, height=5)]')).toBe(false);
  });
  it('missing required parameter fails (missing_required)', () => {
    expect(verdict(triangle, '[calculate_triangle_area(base=10)]')).toBe(false);
  });
  it('extra parameter fails (unexpected_param)', () => {
    expect(verdict(triangle, '[calculate_triangle_area(base=10, height=5, color="red")]')).toBe(false);
  });
  it('wrong function fails (wrong_func_name), also among several offered functions', () => {
    expect(verdict(triangle, '[calculate_square_area(base=10, height=5)]')).toBe(false);
    const multiple = caseOf('multiple', 'multiple_0'); // triangle_properties.get or circle_properties.get
    expect(verdict(multiple, '[triangle_properties.get(side1=5, side2=4, side3=3)]')).toBe(true);
    expect(verdict(multiple, '[circle_properties.get(radius=5)]')).toBe(false);
  });
  it('two calls where one is expected fail (wrong_count)', () => {
    const twice = '[calculate_triangle_area(base=10, height=5), calculate_triangle_area(base=10, height=5)]';
    expect(verdict(triangle, twice)).toBe(false);
  });
  it('parallel calls reordered pass (no_order); one missing or a duplicate instead fails', () => {
    const parallel = caseOf('parallel', 'parallel_0'); // spotify.play Taylor Swift/20, Maroon 5/15
    const swift = 'spotify.play(artist="Taylor Swift", duration=20)';
    const maroon = 'spotify.play(artist="Maroon 5", duration=15)';
    expect(verdict(parallel, `[${swift}, ${maroon}]`)).toBe(true);
    expect(verdict(parallel, `[${maroon}, ${swift}]`)).toBe(true);
    expect(verdict(parallel, `[${maroon}]`)).toBe(false);
    expect(verdict(parallel, `[${maroon}, ${maroon}]`)).toBe(false);
  });
  it('repeated identical calls in one reply each count (parallel_158 expects each call twice)', () => {
    const c = caseOf('parallel', 'parallel_158');
    const a = 'random.normalvariate(mu=5, sigma=2)';
    const b = 'random.normalvariate(mu=10, sigma=3)';
    expect(verdict(c, `[${a}, ${a}, ${b}, ${b}]`)).toBe(true);
    expect(verdict(c, `[${a}, ${b}]`)).toBe(false);
  });
  it('int for float passes (BFCL converts int to float); float for int fails (type_error)', () => {
    const interest = caseOf('simple_python', 'simple_python_136'); // annual_rate: float, answer [5.0]
    const args = answerArgs(interest.expect.calls![0]!);
    const reply = (rate: string) =>
      pythonCallList([{ tool: 'compound_interest', args: { ...args, annual_rate: '@' } }]).replace('"@"', rate);
    expect(verdict(interest, reply('5'))).toBe(true);
    expect(verdict(interest, reply('5.0'))).toBe(true);
    expect(verdict(triangle, '[calculate_triangle_area(base=10.0, height=5)]')).toBe(false);
  });
  it('differently-cased string passes (standardize_string: case, spaces and ,./-_*^ ignored); another word fails', () => {
    expect(verdict(triangle, '[calculate_triangle_area(base=10, height=5, unit="Units")]')).toBe(true);
    expect(verdict(triangle, '[calculate_triangle_area(base=10, height=5, unit="UNITS.")]')).toBe(true);
    expect(verdict(triangle, '[calculate_triangle_area(base=10, height=5, unit="cm")]')).toBe(false);
  });
  it('a string for an integer fails (type_error)', () => {
    expect(verdict(triangle, '[calculate_triangle_area(base="10", height=5)]')).toBe(false);
  });
});
