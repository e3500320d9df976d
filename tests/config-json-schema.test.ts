import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, runCli } from './cli-helpers.js';

const SCHEMA_FILE = 'toolgauge.schema.json';

describe('the committed JSON Schema of the config (toolgauge.schema.json)', () => {
  it('is what `toolgauge schema` generates from the config schema now (regenerate: npx toolgauge schema > toolgauge.schema.json)', async () => {
    const res = await runCli(['schema']);
    expect(res.code).toBe(0);
    expect(readFileSync(join(ROOT, SCHEMA_FILE), 'utf8')).toBe(res.stdout);
  }, 30_000);

  it("is the file toolgauge.config.yaml's $schema names, and that config is valid against it", () => {
    const text = readFileSync(join(ROOT, 'toolgauge.config.yaml'), 'utf8');
    const named = /\$schema=(\S+)/.exec(text)?.[1];
    expect(named && join(ROOT, named)).toBe(join(ROOT, SCHEMA_FILE));
    const validate = new Ajv2020({ strict: false }).compile(JSON.parse(readFileSync(join(ROOT, SCHEMA_FILE), 'utf8')));
    expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true);
  });
});
