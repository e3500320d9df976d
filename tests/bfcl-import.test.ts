import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCommand } from '../src/cli/import-command.js';
import { loadSuite, wholeSuite } from '../src/config/load-suite.js';
import { bfclToJsonSchema } from '../src/import/bfcl-schema.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const q = (id: string, fn: unknown, content = 'do it', extra: unknown[] = []) =>
  JSON.stringify({ id, question: [[...extra, { role: 'user', content }]], function: [fn] });
const fn = {
  name: 'geo.area',
  description: 'Area of a shape.',
  parameters: {
    type: 'dict',
    properties: {
      size: { type: 'float', description: 'Size' },
      sides: { type: 'integer' },
      corners: { type: 'tuple', items: { type: 'float' } },
      meta: { type: 'dict', properties: { tag: { type: 'string' } } },
      anything: { type: 'any' },
      kinds: { type: 'array', items: { type: 'string' }, enum: ['a', 'b'] },
      when: { type: 'string', default: null },
    },
    required: ['size', 'sides'],
  },
};

function files(questions: string[], answers?: string[]) {
  const dir = tempDir('tg-bfcl-import-');
  writeFileSync(join(dir, 'BFCL_v4_sample.json'), `${questions.join('\n')}\n`);
  if (answers) writeFileSync(join(dir, 'answers.json'), `${answers.join('\n')}\n`);
  return { dir, questions: join(dir, 'BFCL_v4_sample.json'), answers: join(dir, 'answers.json') };
}

describe('BFCL types → JSON Schema', () => {
  it('maps dict/float/tuple/any, moves an array enum to its items, makes a None default nullable', () => {
    expect(bfclToJsonSchema(fn.parameters)).toEqual({
      type: 'object',
      properties: {
        size: { type: 'number', description: 'Size' },
        sides: { type: 'integer' },
        corners: { type: 'array', items: { type: 'number' } },
        meta: { type: 'object', properties: { tag: { type: 'string' } } },
        anything: {},
        kinds: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
        when: { type: ['string', 'null'], default: null },
      },
      required: ['size', 'sides'],
    });
  });
});

describe('toolgauge import bfcl', () => {
  it('writes a suite that loads: per-case functions, allowed values, parallel order, system messages', async () => {
    const f = files(
      [q('parallel_0', fn, 'two areas', [{ role: 'system', content: 'Be brief.' }]), q('parallel_1', fn)],
      [
        JSON.stringify({
          id: 'parallel_0',
          ground_truth: [{ 'geo.area': { size: [2.0], sides: [3] } }, { 'geo.area': { size: [4], sides: [3] } }],
        }),
        JSON.stringify({
          id: 'parallel_1',
          ground_truth: [{ 'geo.area': { size: ['', 1.5], sides: [4], kinds: [['c']] } }],
        }),
      ],
    );
    const out = join(f.dir, 'suite.yaml');
    expect(await importCommand('bfcl', f.questions, { answers: f.answers, out })).toBe(0);
    const suite = wholeSuite(loadSuite(out));
    expect(readFileSync(out, 'utf8')).toMatch(/^# Imported by `toolgauge import bfcl`/);
    expect(suite.name).toBe('bfcl-parallel');
    const [first, second] = suite.cases;
    expect(first).toMatchObject({ id: 'parallel_0', prompt: 'two areas', system: 'Be brief.' });
    expect(first?.expect).toEqual({
      calls: [
        { tool: 'geo.area', args: { size: [2], sides: [3] } },
        { tool: 'geo.area', args: { size: [4], sides: [3] } },
      ],
      order: 'parallel',
    });
    expect(first?.functions?.[0]?.inputSchema.properties).toHaveProperty('corners', {
      type: 'array',
      items: { type: 'number' },
    });
    // a required parameter's "" moves last (the first allowed value is a real one); the answer's 'c' joins the enum
    expect(second?.expect.calls?.[0]?.args?.size).toEqual([1.5, '']);
    expect(second?.functions?.[0]?.inputSchema.properties).toHaveProperty('kinds.items.enum', ['a', 'b', 'c']);
  });

  it('irrelevance questions need no answers and expect no call', async () => {
    const f = files([q('irrelevance_0', fn), q('irrelevance_1', fn)]);
    const out = join(f.dir, 'irr.yaml');
    await importCommand('bfcl', f.questions, { out });
    const suite = wholeSuite(loadSuite(out));
    expect(suite.cases.map((c) => c.expect)).toEqual([{ no_call: true }, { no_call: true }]);
  });

  it('bad input is a one-line error naming the file, the line and the fix', async () => {
    const noAnswer = files([q('simple_python_0', fn)]);
    await expect(importCommand('bfcl', noAnswer.questions, { out: join(noAnswer.dir, 'x.yaml') })).rejects.toThrow(
      /BFCL_v4_sample\.json:1: question simple_python_0 needs a possible answer; pass --answers <possible_answer\.json>/,
    );
    const broken = files([q('simple_python_0', fn), '{not json']);
    await expect(importCommand('bfcl', broken.questions, { out: join(broken.dir, 'x.yaml') })).rejects.toThrow(
      /BFCL_v4_sample\.json:2: not a JSON object/,
    );
    const multi = files([JSON.stringify({ id: 'multi_turn_base_0', question: [[], []], function: [fn] })]);
    await expect(importCommand('bfcl', multi.questions, { out: join(multi.dir, 'x.yaml') })).rejects.toThrow(
      /category 'multi_turn_base' is not supported/,
    );
    await expect(importCommand('csv', noAnswer.questions, { out: 'x' })).rejects.toThrow(/unknown format 'csv'/);
  });
});
