import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { leftIn, linkTsxCache, processesLeftIn } from '../helpers/temp-guard.js';

/**
 * Per test file (a setup file runs before each test file is loaded): TMPDIR becomes a fresh folder inside the run's,
 * inherited by every process the file starts. Once the file's own afterAll hooks have run (this hook is registered
 * first, so it runs last), no process it started may still run and the folder must be empty again. A file that
 * leaves either fails, naming what it left; the processes are killed and the folder removed all the same.
 */
const runTmp = tmpdir();
const fileTmp = mkdtempSync(join(runTmp, 'file-'));
process.env.TMPDIR = fileTmp;
const own = [linkTsxCache(fileTmp)];

afterAll(async () => {
  const running = await processesLeftIn(fileTmp);
  for (const p of running) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // it ended meanwhile
    }
  }
  const left = leftIn(fileTmp, own);
  rmSync(fileTmp, { recursive: true, force: true });
  process.env.TMPDIR = runTmp;
  const faults = [
    ...(running.length > 0
      ? [
          `left ${running.length} process(es) running: ${running.map((p) => `${p.pid} ${p.cmdline.slice(0, 160)}`).join('; ')}`,
        ]
      : []),
    ...(left.length > 0 ? [`left ${left.length} item(s) in its temporary folder: ${left.join(', ')}`] : []),
  ];
  if (faults.length > 0) {
    throw new Error(
      `this test file ${faults.join(', and ')} (end what each test starts and remove what it makes, including ` +
        'what the CLI under test wrote, in afterEach/afterAll)',
    );
  }
});
