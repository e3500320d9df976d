// Step 1 of the toolgauge action: choose how later steps run toolgauge, installing it when needed, and pass the choice
// on as TOOLGAUGE_CMD (a JSON array of words) in GITHUB_ENV.
//   TOOLGAUGE_CMD already set         → kept (a workflow that runs toolgauge its own way)
//   the project installed toolgauge   → node_modules/.bin/toolgauge of the working directory
//   otherwise                         → the toolgauge the action ships in (built with npm ci there if needed)
// Input TG_INSTALL: auto (default) | project | action.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exportVariable, input, toolgaugeCommand } from './action-io.mjs';

const actionRoot = resolve(input('ACTION_PATH', join(import.meta.dirname, '..', '..')));
const mode = input('INSTALL', 'auto');
if (!['auto', 'project', 'action'].includes(mode)) {
  console.error(`::error::toolgauge action: input install '${mode}' is not one of auto, project, action`);
  process.exit(2);
}

function choose() {
  if (process.env.TOOLGAUGE_CMD && mode === 'auto') {
    const given = toolgaugeCommand();
    if (given.problem) {
      console.error(`::error::toolgauge action: ${given.problem}`);
      process.exit(2);
    }
    return given.words;
  }
  const projectBin = resolve('node_modules', '.bin', 'toolgauge');
  if (mode !== 'action' && existsSync(projectBin)) return [projectBin];
  if (mode === 'project') {
    console.error(
      "::error::toolgauge action: install: project, but node_modules/.bin/toolgauge is missing; run 'npm ci' (with toolgauge in devDependencies) first",
    );
    process.exit(2);
  }
  if (!existsSync(join(actionRoot, 'dist', 'cli', 'main.js'))) {
    console.log(`toolgauge action: building toolgauge in ${actionRoot} (npm ci)`);
    const built = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: actionRoot, stdio: 'inherit' });
    if (built.status !== 0) {
      console.error(`::error::toolgauge action: npm ci in ${actionRoot} failed (exit ${built.status})`);
      process.exit(3);
    }
  }
  return [process.execPath, join(actionRoot, 'bin', 'toolgauge.js')];
}

const command = choose();
exportVariable('TOOLGAUGE_CMD', JSON.stringify(command));
console.log(`toolgauge action: running ${command.join(' ')}`);
