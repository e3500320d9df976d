import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../errors.js';
import { baselinePath, type GateSettings } from '../gate/judge.js';
import { readSnapshot } from '../report/snapshot.js';
import { displayPath } from '../util/display-path.js';
import type { Finding } from './finding.js';

/**
 * The baseline the gate compares with (gate.baseline, relative to the config file): turned off, absent (a warning),
 * unreadable (eval would stop on it), made with another configuration (its comparisons will say so: a warning), or
 * the baseline of this configuration. `configHash`: this config's, when its suites could be read; `runsDir`: where the
 * config's runs go (its `out`, resolved), named in the fix as the user types it from here.
 */
export function checkBaseline(
  gate: GateSettings,
  configDir: string,
  configFile: string,
  configHash: string | undefined,
  runsDir: string,
): Finding {
  const file = baselinePath(gate, configDir);
  const runDir = displayPath(join(runsDir, '<run-id>'));
  const promote = `after a run you trust: toolgauge baseline update ${runDir} -c ${displayPath(configFile)}, and commit the file`;
  if (file === null) return { status: 'ok', subject: 'baseline', detail: 'gate.baseline: none (no regression check)' };
  if (!existsSync(file)) {
    return {
      status: 'warn',
      subject: 'baseline',
      detail: `${displayPath(file)} not found: eval runs, but regressions are not checked`,
      fix: promote,
    };
  }
  let snapshot: ReturnType<typeof readSnapshot>;
  try {
    snapshot = readSnapshot(file);
  } catch (e) {
    return { status: 'fail', subject: 'baseline', detail: errorMessage(e), fix: promote };
  }
  if (!snapshot) return { status: 'warn', subject: 'baseline', detail: `${displayPath(file)} not found`, fix: promote };
  if (configHash !== undefined && snapshot.configHash !== configHash) {
    return {
      status: 'warn',
      subject: 'baseline',
      detail: `${displayPath(file)} (run ${snapshot.runId}) was made with another configuration (what is measured differs: the suites' content, the renderers, the providers or their options, graders, repeats, seed or maxTurns); its comparisons will say so`,
      fix: promote,
    };
  }
  return {
    status: 'ok',
    subject: 'baseline',
    detail: `${displayPath(file)} (run ${snapshot.runId}${configHash === undefined ? '' : ', this configuration'})`,
  };
}
