import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import MarkdownIt from 'markdown-it';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from './cli-helpers.js';
import { runCliAnywhere } from './run-cli-anywhere.js';

// Everything a model, an MCP server or a suite controls is untrusted. One eval whose suite, tool, provider label,
// model replies and provider errors are hostile, checked for every way out: the terminal, summary.md (and the
// GitHub step summary), results.csv, junit.xml and report.html.

const dir = mkdtempSync(join(tmpdir(), 'tg-hostile-'));
const ESC = '\u001b';

/** A provider plugin: a call to a tool named like HTML and a Markdown heading, formula-like arguments, terminal escapes
 * in its replies, and an error message that tries to retitle the terminal and print a fake `gate: passed`. */
const PROVIDER = String.raw`
export function provider() {
  return {
    id: 'hostile',
    kind: 'sim',
    simulated: true,
    async generate(request) {
      const prompt = request.messages[0].content;
      if (prompt.includes('explode')) {
        throw new Error('=HYPERLINK("http://evil.example","click") \u001b]0;PWNED\u0007\u001b[2K\rgate: passed\n# Fake heading <img src=x onerror=alert(1)>\u0000 \u009b31m \u202eexe.txt cc @octocat @org/team');
      }
      const text = request.messages.length > 1
        ? 'Done. \u001b[2K\rgate: passed'
        : '\u001b]0;REPLY\u0007<tool_call>{"name": "<img src=x onerror=alert(1)>\\n# Heading | cell |", "arguments": {"q": "=HYPERLINK(\\"http://evil.example\\",\\"x\\")"}}</tool_call>';
      return { text, toolCalls: [], finishReason: 'stop', latencyMs: 0, raw: { request: {}, response: { text } } };
    },
  };
}
`;

/**
 * A provider that makes Node speak for itself: a warning with escape sequences, then an exception thrown from a timer
 * whose value cannot even be turned into text (its toString throws an error full of escape sequences).
 */
const NODE_PROVIDER = String.raw`
export function provider() {
  return {
    id: 'node-own',
    kind: 'sim',
    simulated: true,
    async generate() {
      process.emitWarning('careful \u001b]0;WARNED\u0007\u001b[2K\rgate: passed');
      const hostile = { toString() { throw new Error('\u001b]0;PWNED\u0007\u001b[2K\rgate: passed'); } };
      setTimeout(() => { throw hostile; });
      return new Promise(() => {});
    },
  };
}
`;

/** A provider whose set-up fails with a message that tries to retitle the terminal and fake gate lines. */
const BROKEN_PROVIDER = `export function provider() {
  throw new Error('key refused \\u001b]0;PWNED\\u0007\\u001b[2K\\rgate: passed\\n\\u001b[2K\\rgate: passed');
}
`;

// YAML double-quoted strings: \e is ESC, \a is BEL, \r a carriage return.
const SUITE = `name: "evil \`x\` [y](z.example) _b_ #h $m$ &amp;"
tools:
  - name: lookup
    description: "Looks things up \\e]0;TOOLTITLE\\a"
    inputSchema: { type: object, properties: { q: { type: string } }, required: [q] }
cases:
  - id: ask
    prompt: "Look up the answer \\e[2K\\rgate: passed"
    expect: { calls: [{ tool: lookup, args: { q: [answer] } }] }
  - id: explode
    prompt: explode please
    expect: { no_call: true }
`;

const CONFIG = `suites: [hostile.yaml]
renderers: [names-only, full-details]
providers: [{ id: ./hostile-provider.mjs, label: "@SUM(1+1) <b>bold</b> *x*" }]
concurrency: 2
out: out
gate: { baseline: none, maxInfraErrorRate: 0.9, minPassRate: { correct-arguments: 0.9 } }
`;

function writeProject(root: string, suite: string): void {
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'hostile-provider.mjs'), PROVIDER);
  writeFileSync(join(root, 'hostile.yaml'), suite);
  writeFileSync(join(root, 'toolgauge.config.yaml'), CONFIG);
  writeFileSync(join(root, 'broken-provider.mjs'), BROKEN_PROVIDER);
  writeFileSync(join(root, 'broken.config.yaml'), CONFIG.replace('./hostile-provider.mjs', './broken-provider.mjs'));
  writeFileSync(join(root, 'node-provider.mjs'), NODE_PROVIDER);
  writeFileSync(join(root, 'node.config.yaml'), CONFIG.replace('./hostile-provider.mjs', './node-provider.mjs'));
}

/** What a terminal would act on: ESC, BEL, CR, NUL and the C1 CSI. */
const ACTIVE = /[\u0000\u0007\u000d\u001b\u009b]/;

let run: CliResult;
let render: CliResult;
let parsed: CliResult;
let refresh: CliResult;
let broken: CliResult;
let nodeOwn: CliResult;
let runDir: string;
const stepSummary = join(dir, 'step-summary.md');
const p = join(dir, 'p');
/** A project two folders down, whose suite is named like a path. */
const nested = join(dir, 'a', 'b');

// The five commands run at once (each is a CLI start of its own); the tests check their output.
beforeAll(async () => {
  writeProject(p, SUITE);
  writeFileSync(
    join(p, 'reply.txt'),
    `${ESC}]0;X\u0007<tool_call>{"name":"lookup\\u001b[2K\\r","arguments":{"q":"a\\u0000b"}}</tool_call>\r\ngate: passed`,
  );
  writeProject(nested, SUITE.replace(/^name: .*$/m, 'name: ../../PWNED'));
  [run, render, parsed, refresh, broken, nodeOwn] = await Promise.all([
    runCliAnywhere(['eval', '-c', 'toolgauge.config.yaml'], p, { GITHUB_STEP_SUMMARY: stepSummary }),
    runCliAnywhere(['render', '--suite', 'hostile.yaml', '--case', 'ask', '--renderer', 'full-details'], p),
    runCliAnywhere(['parse', 'reply.txt', '--suite', 'hostile.yaml', '--case', 'ask'], p),
    runCliAnywhere(['schemas', 'refresh'], nested),
    runCliAnywhere(['eval', '-c', 'broken.config.yaml'], p),
    runCliAnywhere(['eval', '-c', 'node.config.yaml', '--out', 'node-out'], p),
  ]);
  const out = join(p, 'out');
  runDir = join(out, readdirSync(out)[0] ?? '');
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hostile text from a model, a provider and a suite', () => {
  it('reaches the terminal with its control characters visible, and cannot fake a gate line', () => {
    expect(run.code).toBe(1); // the gate failed (correct-arguments 0%)
    for (const text of [run.stdout, run.stderr]) {
      expect(text).not.toMatch(ACTIVE);
      expect(text).not.toMatch(/^gate: passed/m);
    }
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe('gate: FAILED');
    // an error that ends the command: one line of its own, its message's lines indented, escapes visible
    expect(broken.code).toBe(2);
    expect(broken.stderr).not.toMatch(ACTIVE);
    expect(broken.stderr).not.toMatch(/^gate: passed/m);
    expect(broken.stderr).toContain(
      String.raw`threw: key refused \x1b]0;PWNED\x07\x1b[2K\rgate: passed` +
        `\n  ${String.raw`\x1b[2K\rgate: passed`}\n`,
    );
    // still shown, made visible: the error message quoted in the summary
    expect(run.stdout).toContain(String.raw`\\x1b\]0;PWNED\\x07\\x1b\[2K gate: passed \# Fake heading`);
  });

  it('summary.md renders no element, link, heading or table cell from untrusted text', () => {
    const md = readFileSync(join(runDir, 'summary.md'), 'utf8');
    const tokens = new MarkdownIt({ html: true, linkify: false }).parse(md, {});
    const all = tokens.flatMap((t) => [t, ...(t.children ?? [])]);
    const types = new Set(all.map((t) => t.type));
    // (bold is the writer's own: the verdict, grader names)
    for (const forbidden of ['html_inline', 'html_block', 'link_open', 'image', 'em_open', 's_open']) {
      expect(types.has(forbidden), forbidden).toBe(false);
    }
    const bold = all.flatMap((t, i, a) => (t.type === 'strong_open' ? [a[i + 1]?.content] : []));
    expect(
      bold.filter(
        (b) =>
          !/^(gate: FAILED|correct-arguments|parseable|markdown-wrapped|no-call|continued-after-results|\d+%)$/.test(
            b ?? '',
          ),
      ),
    ).toEqual([]);
    // headings: only the ones the writer makes
    const headings = tokens.flatMap((t, i) => (t.type === 'heading_open' ? [tokens[i + 1]?.content ?? ''] : []));
    for (const h of headings) {
      expect(h).toMatch(
        /^(toolgauge run |parseable|correct-arguments|markdown-wrapped|continued-after-results|no-call|Strategies per provider|@\u200bSUM|First failures|First tool errors|Flaky cases|Regressions against baseline|What this gate can detect|Infrastructure errors|Call shapes)/,
      );
    }
    expect(headings.some((h) => /Fake heading|^Heading/.test(h))).toBe(false);
    // every table row has as many cells as its header
    const rows: number[][] = [];
    let cells = 0;
    for (const t of tokens) {
      if (t.type === 'table_open') rows.push([]);
      if (t.type === 'tr_open') cells = 0;
      if (t.type === 'th_open' || t.type === 'td_open') cells++;
      if (t.type === 'tr_close') rows.at(-1)?.push(cells);
    }
    expect(rows.length).toBeGreaterThan(3);
    for (const r of rows) expect(new Set(r).size, `row widths ${r}`).toBe(1);
    // the hostile strings are there, as text
    const html = new MarkdownIt({ html: true }).render(md);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('evil `x` [y](z.example) _b_ #h $m$ &amp;');
    expect(html).toContain('@\u200bSUM(1+1) &lt;b&gt;bold&lt;/b&gt; *x*');
    // no @mention pings anyone when the summary is posted as a PR comment (a zero-width space after each @)
    expect(html).toContain('cc @\u200boctocat @\u200borg/team');
    // (GitHub mentions no one from a code span: only text outside them counts)
    const prose = all.filter((t) => t.type === 'text').map((t) => t.content);
    expect(prose.filter((t) => /(?<![\p{L}\p{N}_])@[\p{L}\p{N}]/u.test(t))).toEqual([]);
    // the same text is printed and appended to the GitHub step summary
    expect(run.stdout).toContain(md);
    expect(readFileSync(stepSummary, 'utf8')).toBe(md);
  });

  it('results.csv defuses cells that start like a formula, and leaves numbers alone', () => {
    const rows = parse(readFileSync(join(runDir, 'results.csv'), 'utf8'), { columns: true }) as Record<
      string,
      string
    >[];
    expect(rows).toHaveLength(10); // the graded case × 2 renderers × 4 graders, and 2 errors
    const errors = rows.filter((r) => r.case === 'explode');
    expect(errors).toHaveLength(2);
    for (const r of errors) expect(r.error).toMatch(/^'=HYPERLINK\("http:\/\/evil\.example","click"\) \u001b\]0;PWNED/);
    for (const r of rows) {
      expect(r.provider).toBe("'@SUM(1+1) <b>bold</b> *x*");
      for (const v of Object.values(r)) expect(v).not.toMatch(/^[=+@\-\t\r]/);
      // the numeric columns stay numbers
      for (const k of ['repeat', 'prompt_tokens', 'input_tokens', 'output_tokens', 'duration_ms']) {
        expect(r[k], k).toMatch(/^\d+$/);
      }
    }
  });

  it('junit.xml fails exactly the gate checks that failed (not the cases), and report.html escapes every string', () => {
    const junit = readFileSync(join(runDir, 'junit.xml'), 'utf8');
    const failedChecks = run.stderr.split('\n').filter((l) => /^gate: .*FAILED$/.test(l) && l !== 'gate: FAILED');
    expect(failedChecks).toHaveLength(1);
    expect(junit.match(/<failure /g)).toHaveLength(1);
    expect(junit).not.toContain('<error ');
    expect(junit).toContain(
      '<failure type="pass-rate" message="gate: correct-arguments 0.0% (0/2) &lt; 90.0% FAILED">',
    );
    expect(junit.match(/<skipped /g)).toHaveLength(2); // the provider's errors: not graded
    expect(junit).toContain('FAIL evil `x` [y](z.example) _b_ #h $m$ &amp;amp;/ask correct-arguments:');
    const html = readFileSync(join(runDir, 'report.html'), 'utf8');
    expect(html).not.toMatch(/<img src=x|<b>bold/);
    // `cat report.html` (or junit.xml) acts on nothing: the error's controls are shown, as on the terminal
    for (const file of [html, junit])
      expect(file).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(html).toContain(String.raw`\x1b]0;PWNED\x07\x1b[2K\rgate: passed`);
  });

  it("Node's own messages pass the printing boundary: a warning, and an exception whose value cannot be shown", () => {
    expect(nodeOwn.code, nodeOwn.stderr).toBe(3);
    expect(nodeOwn.stderr).not.toMatch(ACTIVE);
    expect(nodeOwn.stderr).not.toMatch(/^gate: passed/m);
    expect(nodeOwn.stderr).toContain(String.raw`Warning: careful \x1b]0;WARNED\x07\x1b[2K\rgate: passed`);
    expect(nodeOwn.stderr).toContain(
      'toolgauge: internal error (uncaught exception): a value that cannot be shown (reading it threw)\n',
    );
    expect(nodeOwn.stderr).not.toContain('Node.js v');
  });

  it('strategies that tie (both at 0%, or both at 100%) mark no best, in report.html and summary.md', () => {
    const html = readFileSync(join(runDir, 'report.html'), 'utf8');
    const strategies = html.slice(
      html.indexOf('<section id="strategies">'),
      html.indexOf('</section>', html.indexOf('<section id="strategies">')),
    );
    expect(strategies).not.toContain('class="best"');
    expect(strategies).not.toContain('<th>★');
    expect(strategies).toContain('class="tie"');
    const md = readFileSync(join(runDir, 'summary.md'), 'utf8');
    const section = md.slice(md.indexOf('## Strategies per provider'));
    expect(section).not.toContain('★ best');
    expect(section).toContain('| names-only | 173 | 100% · tie | 0% · tie |');
  });

  it('render and parse show a prompt and a reply with their control characters visible', () => {
    expect(render.code).toBe(0);
    expect(render.stdout).not.toMatch(ACTIVE);
    expect(render.stdout).toContain(String.raw`Look up the answer \x1b[2K\rgate: passed`);
    expect(render.stdout).toContain(String.raw`Looks things up \x1b]0;TOOLTITLE\x07`);
    expect(parsed.code).toBe(0);
    expect(parsed.stdout).not.toMatch(ACTIVE);
    expect(parsed.stdout).toContain(String.raw`call 1: lookup\x1b[2K → no offered tool has this name`);
    expect(parsed.stdout).toContain(String.raw`args      {"q":"a\u0000b"}`);
  });

  it('a suite whose name is a path is refused: schemas refresh writes nothing outside schemas/', () => {
    expect(refresh.code).toBe(2);
    expect(refresh.stderr).toBe(
      "toolgauge: hostile.yaml:1:7: name: the suite's name holds a path separator '/', which a file name must not; use letters, digits, spaces and - _ . + ( ) (e.g. my-suite)\n",
    );
    // the file it would have written: two folders above schemas/
    expect(existsSync(join(nested, 'schemas', '..', '..', 'PWNED.json'))).toBe(false);
    expect(readdirSync(join(dir, 'a'))).toEqual(['b']);
    expect(existsSync(join(nested, 'schemas'))).toBe(false);
  });
});
