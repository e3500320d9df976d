import { describe, expect, it } from 'vitest';
import type { ParseTool } from '../contracts/parse.js';
import { acceptedCalls, parseResponse } from './index.js';
import { callsInBody } from './json-body.js';
import { parameterSchemas, parameterValue, textValue } from './text-values.js';

const SCHEDULER: ParseTool = {
  name: 'schedule_backup',
  inputSchema: {
    type: 'object',
    properties: {
      volume: { type: 'string' },
      retain_days: { type: 'integer' },
      ratio: { type: 'number' },
      compress: { type: 'boolean' },
      label: { type: 'null' },
      options: { type: 'object' },
      targets: { type: 'array', items: { type: 'string' } },
      window: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      mode: { oneOf: [{ type: 'boolean' }, { type: 'string' }] },
      note: { type: ['string', 'null'] },
      tier: { enum: [1, 2, 3] },
      region: { $ref: '#/$defs/Region' },
      owner: { $ref: 'https://schemas.example/owner.json' },
      mixed: { anyOf: [{ type: 'integer' }, { $ref: '#/$defs/Missing' }] },
      level: { allOf: [{ $ref: '#/$defs/Level' }], description: 'compression level' },
      alias: { type: 'string', nullable: true },
    },
    $defs: { Region: { type: 'string', enum: ['eu', 'us'] }, Level: { type: 'integer', minimum: 1 } },
  },
};

const value = (param: string, raw: string) => parameterValue(raw, parameterSchemas([SCHEDULER], SCHEDULER.name), param);

describe('textValue by the parameter schema', () => {
  it('integer and number: numbers become numbers, other text stays text so the grader sees the wrong type', () => {
    expect(value('retain_days', '30')).toEqual({ value: 30, repaired: false });
    expect(value('retain_days', ' -4 ')).toEqual({ value: -4, repaired: false });
    expect(value('retain_days', 'thirty')).toEqual({ value: 'thirty', repaired: false });
    // a fraction for an integer is the number written: the schema check, not the parser, rejects it
    expect(value('retain_days', '2.5')).toEqual({ value: 2.5, repaired: false });
    expect(value('ratio', '0.75')).toEqual({ value: 0.75, repaired: false });
    expect(value('ratio', '1e3')).toEqual({ value: 1000, repaired: false });
    expect(value('ratio', '0x10')).toEqual({ value: '0x10', repaired: false });
  });

  it('boolean in any case, null, and a string kept as written (digits included)', () => {
    expect(value('compress', 'TRUE').value).toBe(true);
    expect(value('compress', 'False').value).toBe(false);
    expect(value('compress', 'yes').value).toBe('yes');
    expect(value('label', 'null').value).toBeNull();
    expect(value('volume', '42').value).toBe('42');
    expect(value('volume', 'true').value).toBe('true');
    expect(value('volume', 'null').value).toBe('null');
    // for a type that is not a string, null still means null (as the reference parsers read it)
    expect(value('retain_days', 'NULL').value).toBeNull();
  });

  it('object and array: JSON, repaired and flagged when jsonrepair was needed; not JSON stays text', () => {
    expect(value('options', '{"level": 9, "fast": false}')).toEqual({
      value: { level: 9, fast: false },
      repaired: false,
    });
    expect(value('options', "{'level': 9}")).toEqual({ value: { level: 9 }, repaired: true });
    expect(value('targets', '["s3", "nas"]')).toEqual({ value: ['s3', 'nas'], repaired: false });
    expect(value('targets', 's3, nas')).toEqual({ value: 's3, nas', repaired: false });
    // an array where an object is wanted does not fit: the text as written
    expect(value('options', '[1]').value).toBe('[1]');
  });

  it('anyOf, oneOf and a type array are tried null, boolean, integer, number, object, array, then string', () => {
    expect(value('window', '6').value).toBe(6);
    expect(value('window', 'null').value).toBeNull();
    expect(value('window', 'late').value).toBe('late');
    expect(value('mode', 'true').value).toBe(true);
    expect(value('mode', 'incremental').value).toBe('incremental');
    expect(value('note', 'null').value).toBeNull();
    expect(value('note', '7').value).toBe('7');
    expect(value('tier', '2').value).toBe(2);
    // OpenAPI's nullable adds null to the type
    expect(value('alias', 'null').value).toBeNull();
    expect(value('alias', '500').value).toBe('500');
  });

  it('a local $ref is followed; one that cannot be resolved counts as no schema', () => {
    expect(value('region', '42').value).toBe('42');
    expect(value('level', '09').value).toBe(9);
    expect(value('level', 'max').value).toBe('max');
    expect(value('owner', '42').value).toBe(42);
    expect(value('owner', 'ops team').value).toBe('ops team');
    // one unresolvable member makes the whole union unknown: the JSON-literal rule decides
    expect(value('mixed', '[1, 2]').value).toEqual([1, 2]);
  });

  it('no schema (no tools, an unknown tool or parameter): only a whole JSON literal is parsed', () => {
    const none = parameterSchemas([], 'schedule_backup');
    expect(parameterValue('30', none, 'retain_days').value).toBe(30);
    expect(parameterValue('"30"', none, 'retain_days').value).toBe('"30"');
    expect(parameterValue('007', none, 'zip').value).toBe('007');
    expect(parameterValue('[a, b]', none, 'targets').value).toBe('[a, b]');
    expect(parameterValue('{"x": 1}', parameterSchemas([SCHEDULER], 'other_tool'), 'options').value).toEqual({ x: 1 });
    expect(value('unknown_param', 'false').value).toBe(false);
  });

  it('one layout line break after the open tag and before the close tag goes; tag-like text and fences stay', () => {
    const code = '```ts\nconst ok = a < b && <Tag attr="x">y</Tag>;\n```';
    expect(value('volume', `\n${code}\n`).value).toBe(code);
    expect(value('volume', '\r\n  indented\r\n').value).toBe('  indented');
    expect(value('volume', '\n\ntwo breaks\n\n').value).toBe('\ntwo breaks\n');
    expect(textValue('<b>bold</b>').value).toBe('<b>bold</b>');
  });

  it('the tool is found by the name it was called under, provider-safe included', () => {
    const dotted: ParseTool = {
      name: 'backup.schedule',
      inputSchema: { type: 'object', properties: { retain_days: { type: 'string' } } },
    };
    expect(parameterValue('30', parameterSchemas([dotted], 'backup_schedule'), 'retain_days').value).toBe('30');
    expect(parameterValue('30', parameterSchemas([dotted], 'backup-schedule'), 'retain_days').value).toBe(30);
  });
});

describe('<parameter=…> values (Qwen3-Coder / OpenHands) by the offered schema', () => {
  const call = (tools?: ParseTool[]) =>
    parseResponse(
      {
        text: '<function=schedule_backup>\n<parameter=volume>\n3\n</parameter>\n<parameter=retain_days>\n3\n</parameter>\n<parameter=targets>["s3"]</parameter>\n</function>',
        toolCalls: [],
      },
      'xml-tags',
      tools ? { tools } : {},
    );

  it('a string parameter keeps "3", an integer one gets 3', () => {
    const r = call([SCHEDULER]);
    expect(r.calls).toMatchObject([
      { name: 'schedule_backup', via: 'function-tags', args: { volume: '3', retain_days: 3, targets: ['s3'] } },
    ]);
    expect(acceptedCalls(r, 'xml-tags')).toEqual([]);
  });

  it('without tools, whole JSON literals are typed as before', () => {
    expect(call().calls[0]?.args).toEqual({ volume: 3, retain_days: 3, targets: ['s3'] });
  });

  it('inside <tool_call> tags too: callsInBody passes the tools on to the <function=…> reader', () => {
    const body = '\n<function=schedule_backup>\n<parameter=volume>\n12\n</parameter>\n</function>\n';
    const opts = { attempt: true, truncated: false, requireArgs: false };
    expect(callsInBody(body, 0, { ...opts, tools: [SCHEDULER] }).calls[0]?.args).toEqual({ volume: '12' });
    expect(callsInBody(body, 0, opts).calls[0]?.args).toEqual({ volume: 12 });
  });

  it('an object value that needed repair flags the call repaired', () => {
    const r = parseResponse(
      {
        text: "<function=schedule_backup>\n<parameter=options>{'level': 3}</parameter>\n</function>",
        toolCalls: [],
      },
      'xml-tags',
      { tools: [SCHEDULER] },
    );
    expect(r.calls).toMatchObject([{ args: { options: { level: 3 } }, repaired: true }]);
  });
});
