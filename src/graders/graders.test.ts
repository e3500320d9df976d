import { describe, expect, it } from 'vitest';
import {
  CASE_000_EXPECTED,
  CASE_000_PROSE,
  CASE_001_FENCED,
  CASE_002_ANSWER,
  CASE_002_RESULT,
  CASE_002_STOPPED,
} from '../../tests/fixtures/parse/golden.js';
import { caseOf, excelTools, transcriptOf } from '../../tests/helpers/grader-fixtures.js';
import { ToolgaugeError } from '../errors.js';
import { resolveGrader } from '../plugins/index.js';
import { graders } from './index.js';
import { allCalls } from './transcript-calls.js';

const readSheet1 = caseOf({
  calls: [
    { tool: 'read_data_from_excel', args: { filepath: ['test.xlsx'], sheet_name: ['Sheet1'], start_cell: ['A1', ''] } },
  ],
  answer_mentions: ['名称', '数量'],
});
const readMyfile = caseOf({
  calls: [
    {
      tool: 'read_data_from_excel',
      args: { filepath: ['myfile.xlsx'], sheet_name: ['Sheet1'], start_cell: ['A1', ''] },
    },
  ],
  answer_mentions: ['名称', '数量'],
});
const grade = (
  name: keyof typeof graders,
  c: typeof readSheet1,
  t: ReturnType<typeof transcriptOf>,
  protocol = t.turns[0]?.request.protocol ?? 'xml-tags',
  tools = excelTools,
) => graders[name].grade({ case: c, transcript: t, protocol, tools });
const statusTool = {
  name: 'get_simulation_status',
  server: 'economist',
  inputSchema: { type: 'object', properties: {} },
};

describe('case study 000: names-only prompt, prose reply', () => {
  const prose = transcriptOf([{ text: CASE_000_PROSE }]);
  it('parseable fails with level none; correct-arguments fails; markdown-wrapped does not apply', () => {
    expect(grade('parseable', readSheet1, prose)).toMatchObject({ pass: false, data: { level: 'none' } });
    expect(grade('correct-arguments', readSheet1, prose)).toMatchObject({
      pass: false,
      score: 0,
      reason: 'read_data_from_excel was never called',
    });
    expect(grade('markdown-wrapped', readSheet1, prose)).toBeNull();
    expect(grade('no-call', readSheet1, prose)).toBeNull();
  });
  it('the expected <tool_call> output passes parseable (strict) and correct-arguments', () => {
    const t = transcriptOf([{ text: CASE_000_EXPECTED }]);
    expect(grade('parseable', readSheet1, t)).toMatchObject({ pass: true, data: { level: 'strict' } });
    expect(grade('correct-arguments', readSheet1, t)).toMatchObject({ pass: true, score: 1 });
    expect(grade('markdown-wrapped', readSheet1, t)).toMatchObject({ pass: true });
  });
});

describe('case study 001: ```tool_call fence', () => {
  const t = transcriptOf([{ text: CASE_001_FENCED }]);
  it('fails parseable (fenced, lenient), passes correct-arguments, fails markdown-wrapped', () => {
    const p = grade('parseable', readMyfile, t);
    expect(p).toMatchObject({ pass: false, data: { level: 'fenced', lenient: true } });
    expect(p?.reason).toContain('would parse with a lenient detector');
    expect(grade('correct-arguments', readMyfile, t)).toMatchObject({ pass: true, score: 1 });
    const m = grade('markdown-wrapped', readMyfile, t);
    expect(m).toMatchObject({ pass: false, data: { fence: '```tool_call' } });
    expect(m?.reason).toContain('```tool_call');
  });
});

describe('case study 002: call, then "(等待工具返回结果...)"', () => {
  const executed = [{ name: 'read_data_from_excel', args: {}, result: CASE_002_RESULT }];
  it('no reply after the result fails', () => {
    const t = { ...transcriptOf([{ text: CASE_002_STOPPED, executed }]), stopReason: 'max-turns' as const };
    const g = grade('continued-after-results', readMyfile, t);
    expect(g).toMatchObject({ pass: false });
    expect(g?.reason).toContain('no model reply after the last tool result');
  });
  it('a dangling reply after the result fails', () => {
    const t = transcriptOf([{ text: CASE_002_STOPPED, executed }, { text: '(等待工具返回结果...)' }]);
    const g = grade('continued-after-results', readMyfile, t);
    expect(g).toMatchObject({ pass: false, data: { dangling: '等待工具返回结果' } });
    expect(g?.reason).toContain("missing '名称', '数量'");
  });
  it('the multi-turn answer that uses the result passes', () => {
    const t = transcriptOf([{ text: CASE_002_STOPPED, executed }, { text: CASE_002_ANSWER }]);
    expect(grade('continued-after-results', readMyfile, t)).toMatchObject({ pass: true, score: 1 });
    expect(grade('parseable', readMyfile, t)).toMatchObject({ pass: false, data: { level: 'repaired' } });
  });
  it('an identical call twice in a row is a loop', () => {
    const args = { filepath: 'myfile.xlsx', sheet_name: 'Sheet1' };
    const call = `<tool_call>{"name": "read_data_from_excel", "arguments": ${JSON.stringify(args)}}</tool_call>`;
    const again = [{ name: 'read_data_from_excel', args, result: CASE_002_RESULT }];
    const t = transcriptOf([
      { text: call, executed: again },
      { text: call, executed: again },
      { text: CASE_002_ANSWER },
    ]);
    const g = grade('continued-after-results', readMyfile, t);
    expect(g?.pass).toBe(false);
    expect(g?.reason).toContain('looped');
    expect(grade('correct-arguments', readMyfile, t)).toMatchObject({ pass: true, data: { calls: 1 } });
  });
  it('the same call with a changed result is polling, not a loop, and counts each time', () => {
    const status = '<tool_call>{"name": "get_simulation_status", "arguments": {}}</tool_call>';
    const polling = caseOf({
      calls: [
        { tool: 'get_simulation_status', args: {} },
        { tool: 'get_simulation_status', args: {} },
      ],
      order: 'sequence',
    });
    const t = transcriptOf([
      { text: status, executed: [{ name: 'get_simulation_status', args: {}, result: 'running: month 6 of 12' }] },
      { text: status, executed: [{ name: 'get_simulation_status', args: {}, result: 'completed: month 12 of 12' }] },
      { text: 'The simulation completed after 12 months.' },
    ]);
    expect(grade('continued-after-results', polling, t)).toMatchObject({ pass: true });
    expect(grade('correct-arguments', polling, t, 'xml-tags', [statusTool])).toMatchObject({ pass: true });
    const stuck = transcriptOf([
      { text: status, executed: [{ name: 'get_simulation_status', args: {}, result: 'running: month 6 of 12' }] },
      { text: status, executed: [{ name: 'get_simulation_status', args: {}, result: 'running: month 6 of 12' }] },
      { text: 'Still running.' },
    ]);
    expect(grade('correct-arguments', polling, stuck, 'xml-tags', [statusTool])?.pass).toBe(false);
    expect(grade('continued-after-results', polling, stuck)?.reason).toContain('looped');
  });
  it('does not apply when nothing was executed', () => {
    expect(grade('continued-after-results', readMyfile, transcriptOf([{ text: CASE_002_ANSWER }]))).toBeNull();
  });
});

describe('correct-arguments', () => {
  const tools = [
    {
      name: 'spotify.play',
      server: 'inline',
      inputSchema: {
        type: 'object',
        properties: { artist: { type: 'string' }, duration: { type: 'integer' } },
        required: ['artist'],
      },
    },
  ];
  const parallel = caseOf({
    calls: [
      { tool: 'spotify.play', args: { artist: ['Taylor Swift', 'Taylor'], duration: [20] } },
      { tool: 'spotify.play', args: { artist: ['Taylor Swift'], duration: [20, 15] } },
    ],
    order: 'parallel',
  });
  const run = (c: typeof parallel, text: string) =>
    graders['correct-arguments'].grade({
      case: c,
      transcript: transcriptOf([{ text }], 'python-call'),
      protocol: 'python-call',
      tools,
    });

  it('parallel calls reordered match, through an optimal assignment (greedy would fail)', () => {
    const g = run(
      parallel,
      '[spotify.play(artist="Taylor Swift", duration=20), spotify.play(artist="Taylor", duration=20)]',
    );
    // greedy: call 1 takes expected 1, call 2 then fits nothing; the assignment gives call 1 → expected 2
    expect(g).toMatchObject({ pass: true, score: 1 });
  });

  it('sequence order is enforced', () => {
    const seq = caseOf({
      calls: [
        { tool: 'spotify.play', args: { artist: ['A'] } },
        { tool: 'spotify.play', args: { artist: ['B'] } },
      ],
      order: 'sequence',
    });
    expect(run(seq, '[spotify.play(artist="A"), spotify.play(artist="B")]')).toMatchObject({ pass: true });
    const swapped = run(seq, '[spotify.play(artist="B"), spotify.play(artist="A")]');
    expect(swapped).toMatchObject({ pass: false, score: 0.5 });
    expect(swapped?.reason).toContain("spotify.play(artist='B') is out of the expected order");
    // a sequence cut short (the model stopped after the first call) is a missing call, not an order problem
    const short = run(seq, '[spotify.play(artist="A")]');
    expect(short).toMatchObject({ pass: false, score: 0.5 });
    expect(short?.reason).toBe('spotify.play was called fewer times than expected');
  });

  it('a hallucinated tool fails and says so', () => {
    const g = run(
      parallel,
      '[spotify.play(artist="Taylor Swift", duration=20), spotify.play(artist="Taylor", duration=20), youtube.play(q="x")]',
    );
    expect(g).toMatchObject({ pass: false, score: 1, data: { hallucinated: ['youtube.play'] } });
    expect(g?.reason).toContain('youtube.play, which is not one of the 1 tools offered');
  });

  it('the same problem twice is said once, with a count', () => {
    const twice = caseOf({
      calls: [
        { tool: 'spotify.play', args: { artist: ['Adele'] } },
        { tool: 'spotify.play', args: { artist: ['Adele'] } },
      ],
      order: 'parallel',
    });
    const g = run(twice, '[spotify.play(artist="Muse")]');
    expect(g).toMatchObject({
      pass: false,
      score: 0,
      data: { matched: 0, unmatched: ['spotify.play', 'spotify.play'] },
    });
    // both expected calls are explained by the one call to the same tool
    expect(g?.reason).toBe("called spotify.play with artist='Muse'; expected one of ['Adele'] (×2)");
    const none = run(twice, 'I cannot play music.');
    expect(none?.reason).toBe('spotify.play was never called (×2)');
  });

  it('JSON Schema violations are reported (ajv)', () => {
    const one = caseOf({ calls: [{ tool: 'spotify.play' }] });
    const g = run(one, '[spotify.play(artist=7)]');
    expect(g).toMatchObject({ pass: false, data: { schemaErrors: ['spotify.play: artist must be string'] } });
  });

  it('a wrong value names the parameter and the allowed values', () => {
    const one = caseOf({
      calls: [{ tool: 'read_data_from_excel', args: { filepath: ['test.xlsx'], sheet_name: ['Sheet1'] } }],
    });
    const t = transcriptOf([
      {
        text: '<tool_call>{"name":"read_data_from_excel","arguments":{"filepath":"test.xlsx","sheet_name":"Sheet2"}}</tool_call>',
      },
    ]);
    const g = graders['correct-arguments'].grade({ case: one, transcript: t, protocol: 'xml-tags', tools: excelTools });
    expect(g?.reason).toBe("called read_data_from_excel with sheet_name='Sheet2'; expected one of ['Sheet1']");
  });

  it('native call names map back to the MCP tool through request.tools', () => {
    const t = transcriptOf(
      [
        {
          text: '',
          toolCalls: [
            {
              id: 'c1',
              name: 'excel--read_data_from_excel',
              arguments: '{"filepath":"test.xlsx","sheet_name":"Sheet1"}',
            },
          ],
        },
      ],
      'native',
    );
    const turn = t.turns[0];
    if (turn)
      turn.request.tools = [
        {
          name: 'excel--read_data_from_excel',
          description: '',
          parameters: {},
          target: { server: 'excel', tool: 'read_data_from_excel' },
        },
      ];
    expect(
      graders['correct-arguments'].grade({ case: readSheet1, transcript: t, protocol: 'native', tools: excelTools }),
    ).toMatchObject({ pass: true });
  });
});

describe('no-call', () => {
  const irrelevant = caseOf({ no_call: true });
  const g = (text: string) =>
    graders['no-call'].grade({
      case: irrelevant,
      transcript: transcriptOf([{ text }]),
      protocol: 'xml-tags',
      tools: excelTools,
    });
  it('passes a plain answer, even with a call inside <think>', () => {
    expect(g('Paris.')).toMatchObject({ pass: true });
    expect(g('<think><tool_call>{"name":"x","arguments":{}}</tool_call></think>Paris.')).toMatchObject({
      pass: true,
      data: { callsInThink: 1 },
    });
  });
  it('fails a fenced call and a malformed attempt', () => {
    expect(g(CASE_001_FENCED)).toMatchObject({ pass: false });
    const bad = g('<tool_call>{"name": "read_data_from_excel", "arguments": {{{</tool_call>');
    expect(bad).toMatchObject({ pass: false });
    expect(g('<tool_call>not json at all</tool_call>')).toMatchObject({ pass: false, data: { malformed: 1 } });
  });
  it('fails a python-call list that does not parse or was cut off (BFCL credits both as abstentions)', () => {
    // BFCL irrelevance_219 (recorded), shortened: a key: value pair inside a list
    expect(g('[get_calories_in_recipe(ingredients=[{"name": "milk"}, "servings": 4}],)]')).toMatchObject({
      pass: false,
      data: { attempts: 1, malformed: 1 },
    });
    expect(g('[get_weather(city="Par')).toMatchObject({ pass: false, data: { calls: ['get_weather'] } });
  });
  it('correct-arguments says why nothing was called when the reply tried and its call list does not parse', () => {
    const got = grade(
      'correct-arguments',
      readSheet1,
      transcriptOf([{ text: '[read_data_from_excel(filepath="test.xlsx" sheet_name="Sheet1")]' }]),
    );
    expect(got?.reason).toBe(
      `read_data_from_excel was never called; the reply's call attempt does not parse: python-call list at 0 does not parse: expected ',' or ')' but found "sheet_name" at 43`,
    );
  });
  it('does not apply to cases that expect calls', () => {
    expect(
      graders['no-call'].grade({
        case: readSheet1,
        transcript: transcriptOf([{ text: 'x' }]),
        protocol: 'xml-tags',
        tools: [],
      }),
    ).toBeNull();
  });
});

describe('registry', () => {
  it('the grader registry returns the built-ins and rejects unknown names with the valid list', async () => {
    const where = () => 'test';
    expect(await resolveGrader('parseable', '.', where)).toBe(graders.parseable);
    await expect(resolveGrader('toString', '.', where)).rejects.toThrow(ToolgaugeError);
    try {
      await resolveGrader('nope', '.', where);
    } catch (e) {
      expect(e).toMatchObject({ code: 'UNKNOWN_GRADER' });
      expect((e as Error).message).toContain(
        'parseable, correct-arguments, markdown-wrapped, continued-after-results, no-call',
      );
    }
    for (const [key, grader] of Object.entries(graders)) expect(grader.name).toBe(key);
  });
});

describe('the calls of a transcript are found once and shared between graders', () => {
  it('the same transcript gives the same calls; one that grew since is read again', () => {
    const t = transcriptOf([{ text: CASE_000_EXPECTED }]);
    const first = allCalls(t);
    expect(first.map((r) => r.tool)).toEqual(['read_data_from_excel']);
    expect(allCalls(t)).toBe(first);
    expect(grade('markdown-wrapped', readSheet1, t)).toMatchObject({ pass: true, data: { fence: null } });
    const grown = transcriptOf([{ text: CASE_000_EXPECTED }, { text: CASE_001_FENCED }]);
    t.turns.push(grown.turns[1] as (typeof t.turns)[number]);
    expect(allCalls(t).map((r) => [r.turn, r.call.via])).toEqual([
      [0, 'xml-tags'],
      [1, 'fenced'],
    ]);
    expect(grade('markdown-wrapped', readSheet1, t)).toMatchObject({ pass: false, data: { wrapped: 1, calls: 2 } });
  });
});

describe('parseable names the family of a call in a model-native format', () => {
  it('says which format the model wrote and that a strict detector misses it', () => {
    const transcript = transcriptOf([{ text: '[TOOL_CALLS]get_weather[ARGS]{"city": "Oslo"}' }]);
    const g = graders.parseable.grade({
      case: caseOf({ calls: [{ tool: 'get_weather', args: {} }] }),
      transcript,
      protocol: 'xml-tags',
      tools: [],
    });
    expect(g).toMatchObject({ pass: false, data: { level: 'repaired', via: ['mistral'] } });
    expect(g?.reason).toBe(
      "get_weather call found in Mistral's [TOOL_CALLS] format (via mistral); a strict xml-tags detector misses it (would parse with a lenient detector)",
    );
  });
});
