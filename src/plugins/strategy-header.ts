import type { RunHeader } from '../run-log/schema.js';
import type { Strategy } from './strategies.js';

/**
 * A strategy as the run header records it: its label (the key), renderer and options, and its catalog variant
 * (name, the variant it was swept from, the swept values and the variant's fields), which reports chart sweeps by.
 */
export function strategyHeader(s: Strategy): RunHeader['strategies'][number] {
  const v = s.variant?.variant;
  return {
    label: s.label,
    name: s.name,
    options: s.options,
    ...(s.providers ? { providers: s.providers } : {}),
    ...(v
      ? {
          variant: {
            name: v.name,
            base: v.base,
            spec: v.spec as Record<string, unknown>,
            ...(v.sweep ? { sweep: v.sweep } : {}),
          },
        }
      : {}),
  };
}
