import { z } from 'zod';
import { ToolgaugeError } from '../errors.js';
import { isPluginPath } from '../util/plugin-path.js';
import type { ProviderEntry } from './config-schema.js';
import { isBuiltinProviderPrefix, providerOptionsSchema } from './provider-options-schema.js';

/**
 * The options of `sim:<persona>` (providers/simulated/index.ts reads these two), so that a mistyped key on the
 * command line is refused for simulated providers as it is for the SDK ones.
 */
const simOptionsSchema = z
  .object({
    honorStop: z.boolean().optional(),
    latencyMs: z.number().int().min(0).optional(),
  })
  .strict();

/** One `--provider-option KEY=VALUE`, as given and as read. */
export interface ProviderOptionFlag {
  flag: string;
  key: string;
  value: unknown;
}

/**
 * Reads `KEY=VALUE`. A value that reads as JSON (a number, true, false, null, a list or an object) is taken as such;
 * anything else is a string (`baseURL=http://127.0.0.1:8000/v1`, `toolChoice=auto`).
 */
export function parseProviderOptionFlag(text: string): ProviderOptionFlag {
  const flag = `--provider-option ${text}`;
  const eq = text.indexOf('=');
  const key = eq < 0 ? '' : text.slice(0, eq).trim();
  if (!key) throw new ToolgaugeError('USAGE', `${flag}: expected KEY=VALUE, e.g. --provider-option temperature=0`);
  const raw = text.slice(eq + 1).trim();
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // not JSON: the text itself
  }
  return { flag, key, value };
}

/** A provider module given by path (as src/plugins reads ids): a built-in `<prefix>:<model>` id may hold slashes. */
function isPlugin(id: string): boolean {
  const colon = id.indexOf(':');
  if (colon > 0 && isBuiltinProviderPrefix(id.slice(0, colon))) return false;
  return isPluginPath(id);
}

/**
 * The schema a provider's options obey: the SDK providers' {@link providerOptionsSchema} (the one their config
 * options are validated by), the simulated personas' own, or none for a provider module given by path.
 */
function schemaFor(id: string): z.ZodObject | undefined {
  if (isPlugin(id)) return undefined;
  return id.startsWith('sim:') ? simOptionsSchema : providerOptionsSchema;
}

/**
 * Validates each `--provider-option` against the schema of every provider it applies to: an unknown key or a bad value
 * is a usage error naming the flag, with what is valid. The whole option set is validated again by the provider when
 * it is made (so a required option still missing, e.g. baseURL, is named there).
 */
export function checkProviderOptionFlags(flags: readonly ProviderOptionFlag[], providerIds: readonly string[]): void {
  for (const { flag, key, value } of flags) {
    for (const id of providerIds) {
      const schema = schemaFor(id);
      if (!schema) continue;
      const field = schema.shape[key] as z.ZodType | undefined;
      if (!field) {
        throw new ToolgaugeError(
          'USAGE',
          `${flag}: unknown option '${key}' for provider ${id}; valid options: ${Object.keys(schema.shape).join(', ')}`,
        );
      }
      const parsed = field.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const at = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
        throw new ToolgaugeError(
          'USAGE',
          `${flag}: bad value for '${key}' (provider ${id})${at}: ${issue?.message ?? 'invalid'}`,
        );
      }
    }
  }
}

/** The providers with the command line's options laid over each entry's own (a flag wins over the config file). */
export function applyProviderOptionFlags(
  entries: readonly ProviderEntry[],
  flags: readonly ProviderOptionFlag[],
): ProviderEntry[] {
  if (flags.length === 0) return [...entries];
  if (entries.length === 0) {
    throw new ToolgaugeError(
      'USAGE',
      `${flags[0]!.flag}: no provider to apply it to; pass --provider <id> or list providers in the config`,
    );
  }
  const ids = entries.map((e) => (typeof e === 'string' ? e : e.id));
  checkProviderOptionFlags(flags, ids);
  const extra = Object.fromEntries(flags.map((f) => [f.key, f.value]));
  return entries.map((e) =>
    typeof e === 'string' ? { id: e, options: { ...extra } } : { ...e, options: { ...(e.options ?? {}), ...extra } },
  );
}
