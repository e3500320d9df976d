import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';

/** The temporary folder of the machine, before the test run replaced TMPDIR with its own (tests/setup/run-tmpdir.ts). */
export const OUTER_TMPDIR_ENV = 'TOOLGAUGE_TEST_OUTER_TMPDIR';

/**
 * tsx keeps its compile cache in `<tmpdir>/tsx-<uid>`. A test's folder links it to the machine's, so a process that
 * loads TypeScript through tsx (a TypeScript plugin, the promptfoo integration) does not compile it all again in every
 * file's fresh folder. The link is the guard's, not a leftover of a test.
 */
export function linkTsxCache(folder: string): string {
  const name = `tsx-${userInfo().uid}`;
  const outer = process.env[OUTER_TMPDIR_ENV];
  if (outer) {
    const target = join(outer, name);
    mkdirSync(target, { recursive: true });
    symlinkSync(target, join(folder, name), 'dir');
  }
  return name;
}

/** What is in `folder` but the entries named in `own`. */
export function leftIn(folder: string, own: string[]): string[] {
  return existsSync(folder) ? readdirSync(folder).filter((n) => !own.includes(n)) : [];
}
