import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { leftIn, linkTsxCache } from '../helpers/temp-guard.js';

/**
 * Per test file (a setup file runs before each test file is loaded): TMPDIR becomes a fresh folder inside the run's,
 * inherited by every process the file starts, and must be empty again once the file's own afterAll hooks have run
 * (this hook is registered first, so it runs last). A file that leaves anything there fails, naming what it left;
 * the leftovers are removed all the same.
 */
const runTmp = tmpdir();
const fileTmp = mkdtempSync(join(runTmp, 'file-'));
process.env.TMPDIR = fileTmp;
const own = [linkTsxCache(fileTmp)];

afterAll(() => {
  const left = leftIn(fileTmp, own);
  rmSync(fileTmp, { recursive: true, force: true });
  process.env.TMPDIR = runTmp;
  if (left.length > 0) {
    throw new Error(
      `this test file left ${left.length} item(s) in its temporary folder: ${left.join(', ')} ` +
        '(remove what each test makes, including what the CLI under test wrote, in afterEach/afterAll)',
    );
  }
});
