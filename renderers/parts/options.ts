import type { z } from 'zod';
import { ToolgaugeError } from '../../src/errors.js';

/** Parses a renderer's `options` from the config; a typo or wrong value is a config error naming the renderer. */
export function parseOptions<S extends z.ZodType>(renderer: string, schema: S, options: unknown): z.infer<S> {
  const result = schema.safeParse(options ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => `${i.path.join('.') || '(options)'}: ${i.message}`).join('; ');
  throw new ToolgaugeError('CONFIG_INVALID', `renderer ${renderer}: invalid options: ${issues}`, { renderer, options });
}
