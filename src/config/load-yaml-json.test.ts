import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { useTempDirs } from '../../tests/helpers/temp-dirs.js';
import { loadYamlFile } from './load-yaml.js';
import { SuiteSchema } from './suite-schema.js';

const tempDir = useTempDirs();

const suite = {
  name: 'json-suite',
  tools: [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
  cases: [
    { id: 'a', prompt: 'Weather in Paris?', expect: { calls: [{ tool: 'get_weather', args: { city: ['Paris'] } }] } },
  ],
};

describe('loadYamlFile on JSON text (fast path)', () => {
  const dir = tempDir('tg-yaml-json-');
  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  it('gives the same data as the YAML path, and still locates paths by line:column', () => {
    const fromJson = loadYamlFile(write('s.json.yaml', JSON.stringify(suite, null, 2)), SuiteSchema, 'SUITE_INVALID');
    const fromYaml = loadYamlFile(write('s.yaml', stringify(suite)), SuiteSchema, 'SUITE_INVALID');
    expect(fromJson.data).toEqual(fromYaml.data);
    expect(fromJson.locate(['cases', 0, 'prompt'])).toMatch(/s\.json\.yaml:\d+:\d+: cases\[0\]\.prompt$/);
  });

  it('reports an invalid JSON suite with the located one-line error of the YAML path', () => {
    const bad = { ...suite, cases: [{ ...suite.cases[0], expect: { calls: [{ tool: 'get_weather', argz: {} }] } }] };
    const file = write('bad.yaml', JSON.stringify(bad, null, 2));
    expect(() => loadYamlFile(file, SuiteSchema, 'SUITE_INVALID')).toThrow(
      /bad\.yaml:\d+:\d+: cases\[0\]\.expect\.calls\[0\].*argz/,
    );
  });
});
