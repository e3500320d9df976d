import { z } from 'zod';
import { ConfigSchema } from './config-schema.js';
import { SuiteSchema } from './suite-schema.js';

/** JSON Schema of toolgauge.config.yaml, generated from the zod schema (the source of truth). */
export function configJsonSchema(): Record<string, unknown> {
  return { title: 'toolgauge config', ...z.toJSONSchema(ConfigSchema, { io: 'input', unrepresentable: 'any' }) };
}

export function suiteJsonSchema(): Record<string, unknown> {
  return { title: 'toolgauge suite', ...z.toJSONSchema(SuiteSchema, { io: 'input', unrepresentable: 'any' }) };
}
