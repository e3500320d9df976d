import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

const remove = (dir: string) => rmSync(dir, { recursive: true, force: true });

/**
 * Temporary folders of one test file, all removed after its tests (with whatever the CLI under test wrote in them):
 * call at the top level of a test file (not of a helper module: a module may be loaded once for several files),
 * then `tempDir('tg-name-')` wherever a folder is needed.
 */
export function useTempDirs(): (prefix: string) => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made.splice(0)) remove(dir);
  });
  return (prefix) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}

/** A temporary folder removed when the running test ends: for helper modules, called from inside a test. */
export function testTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => remove(dir));
  return dir;
}
