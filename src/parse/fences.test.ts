import { describe, expect, it } from 'vitest';
import { findFencedCalls, findInlineCodeCalls } from './fences.js';
import { parseResponse } from './index.js';
import { maskSpans } from './think-blocks.js';

const parse = (text: string) => parseResponse({ text, toolCalls: [] }, 'xml-tags');
const CALL = '{"name": "get_weather", "arguments": {"city": "Oslo"}}';

describe('what opens a multi-line fence', () => {
  it.each([
    ['an info word and a line break', `\`\`\`json\n${CALL}\n\`\`\``, 'json'],
    ['no info word', `\`\`\`\n${CALL}\n\`\`\``, ''],
    ['after prose on the same line', `Here: \`\`\`json\n${CALL}\n\`\`\``, 'json'],
    ['an info word, then spaces and a CRLF', `\`\`\`JSON  \r\n${CALL}\r\n\`\`\``, 'json'],
    ['four backticks', `\`\`\`\`json\n${CALL}\n\`\`\`\``, 'json'],
    ['the call on the opening line, at the start of a line', `\`\`\`${CALL}\n\`\`\``, ''],
    ['an info word and the call on the opening line', `\`\`\`json ${CALL}\n\`\`\``, 'json'],
    ['closed at the end of the last body line', `\`\`\`json\n${CALL}\`\`\``, 'json'],
  ])('%s', (_, text, fence) => {
    const r = parse(text);
    expect(r.calls).toMatchObject([
      { name: 'get_weather', args: { city: 'Oslo' }, via: 'fenced', fence, inner: 'json' },
    ]);
    expect(r.calls[0]?.truncated).toBeUndefined();
    expect(r.calls[0]?.span).toEqual([text.indexOf('```'), text.length]);
  });

  it('a ```tool_call fence still announces a call: an unreadable body is a wrong-shape attempt', () => {
    expect(parse(`\`\`\`tool_call\n${CALL}\n\`\`\``).calls).toMatchObject([{ via: 'fenced', fence: 'tool_call' }]);
    const bad = parse('```tool_call\nget the weather for Oslo\n```');
    expect(bad.calls).toEqual([]);
    expect(bad.diagnostics.map((d) => d.code)).toEqual(['wrong-shape']);
  });

  it('an unclosed fence runs to the end of the reply, flagged truncated', () => {
    const text = `Calling it.\n\`\`\`json\n${CALL}\n`;
    expect(parse(text).calls).toMatchObject([
      { name: 'get_weather', via: 'fenced', fence: 'json', truncated: true, span: [12, text.length] },
    ]);
  });

  it('inline backticks around a call are inline code', () => {
    expect(parse(`Calling \`${CALL}\` now.`).calls).toMatchObject([
      { name: 'get_weather', via: 'inline-code', fence: '', inner: 'bare-json' },
    ]);
  });

  it('``` followed on its line by prose, after prose, opens nothing: the call after it is not fenced', () => {
    // before, the run opened a fence that ran to the end of the reply
    const r = parse(`Wrap code in \`\`\` fences. Here is the call:\n${CALL}`);
    expect(r.calls).toMatchObject([{ name: 'get_weather', via: 'bare-json' }]);
    expect(parse(`Wrap code in \`\`\`.\n${CALL}`).calls).toMatchObject([{ via: 'bare-json' }]);
  });

  it('a closing run inside a body line is not the close: the fence ends at the run that starts or ends a line', () => {
    const text = '```python\n[note(text="a ``` b", tail="```")]\n```';
    expect(parse(text).calls).toMatchObject([
      { name: 'note', args: { text: 'a ``` b', tail: '```' }, via: 'fenced', fence: 'python', span: [0, text.length] },
    ]);
  });
});

describe('one-line ``` spans', () => {
  it('a span closed on its line holds a call, reported as fenced with the info word before the call', () => {
    expect(parse(`Result: \`\`\`${CALL}\`\`\` done`).calls).toMatchObject([
      { via: 'fenced', fence: '', inner: 'json' },
    ]);
    expect(parse(`\`\`\`json ${CALL}\`\`\``).calls).toMatchObject([{ via: 'fenced', fence: 'json', inner: 'json' }]);
  });

  it('a call with tags of its own inside a span is wrapped by it', () => {
    const r = parse('```<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>```');
    expect(r.calls).toMatchObject([{ name: 'get_weather', via: 'fenced', fence: '', inner: 'xml-tags' }]);
  });

  it('literal backticks do not pair with inline code after them', () => {
    const r = parse('Wrap it in ``` fences, or call `get_weather(city="Oslo")` inline.');
    expect(r.calls).toMatchObject([{ name: 'get_weather', via: 'inline-code', inner: 'python-call' }]);
  });

  it('a span cut off by the end of the reply runs to the end only when it opens a call', () => {
    expect(parse(`Sure: \`\`\`${CALL.slice(0, -3)}`).calls).toMatchObject([
      { name: 'get_weather', via: 'fenced', truncated: true, repaired: true },
    ]);
    // a string value holding ``` at the end of the reply is not a span cut off: the call is whole
    const whole = parse('{"name": "set_marker", "arguments": {"marker": "```"}}');
    expect(whole.calls).toMatchObject([{ name: 'set_marker', args: { marker: '```' }, via: 'json' }]);
    expect(whole.calls[0]?.truncated).toBeUndefined();
  });
});

describe('bodies are read as written when the finder is given the reply', () => {
  it('a body that holds a region claimed before is read from the source; one that starts with it is not', () => {
    const source = `\`\`\`json\n{"name": "note", "arguments": {"text": "a <tag>x</tag> b"}}\n\`\`\``;
    const claimed = source.indexOf('<tag>');
    const masked = maskSpans(source, [[claimed, claimed + '<tag>x</tag>'.length]]);
    expect(findFencedCalls(masked).calls[0]?.args).toEqual({ text: 'a              b' });
    expect(findFencedCalls(masked, source).calls[0]?.args).toEqual({ text: 'a <tag>x</tag> b' });

    // the whole body was claimed (a call with its own tags): nothing is read twice
    const wrapped = '```tool_call\n<tool_call>{"name": "f", "arguments": {}}</tool_call>\n```';
    const inner = maskSpans(wrapped, [[13, wrapped.length - 4]]);
    expect(findFencedCalls(inner, wrapped)).toMatchObject({ calls: [], diagnostics: [] });
  });

  it('inline code too', () => {
    const source = 'Run `{"name": "note", "arguments": {"text": "a <b> c"}}` now';
    const masked = maskSpans(source, [[source.indexOf('<b>'), source.indexOf('<b>') + 3]]);
    expect(findInlineCodeCalls(masked, source).calls[0]?.args).toEqual({ text: 'a <b> c' });
  });
});
