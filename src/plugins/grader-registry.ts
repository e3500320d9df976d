import type { Grader } from '../contracts/grade.js';
import { ToolgaugeError } from '../errors.js';
import { isPluginPath } from '../util/plugin-path.js';
import { loadPlugin, type Where } from './plugin-file.js';

/** The built-in graders (src/graders/index.ts), loaded on first use. */
const builtins = async () => (await import('../graders/index.js')).graders as Record<string, Grader>;

/** A grader by built-in name, or by path to a module exporting `grader` (checked against the contract). */
export async function resolveGrader(name: string, baseDir: string, where: () => string): Promise<Grader> {
  const known = await builtins();
  if (Object.hasOwn(known, name)) return known[name] as Grader;
  if (isPluginPath(name)) return loadPlugin<Grader>('grader', name, baseDir, where);
  throw new ToolgaugeError(
    'UNKNOWN_GRADER',
    `${where()}: unknown grader '${name}'; valid: ${Object.keys(known).join(', ')}, or a path to a module exporting \`grader\``,
  );
}

/** The config's graders in order; absent: every built-in grader. */
export async function resolveGraders(names: string[] | undefined, baseDir: string, where: Where): Promise<Grader[]> {
  if (!names) return Object.values(await builtins());
  const out: Grader[] = [];
  for (const [i, name] of names.entries()) out.push(await resolveGrader(name, baseDir, () => where(i)));
  return out;
}
