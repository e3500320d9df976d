import { existsSync } from 'node:fs';
import { displayPath } from '../config/load-yaml.js';
import { baselinePath, type GateSettings } from '../gate/judge.js';
import type { Finding } from './finding.js';

/** The baseline the gate compares with (gate.baseline, relative to the config file) exists, or is turned off. */
export function checkBaseline(gate: GateSettings, configDir: string, configFile: string): Finding {
  const file = baselinePath(gate, configDir);
  if (file === null) return { status: 'ok', subject: 'baseline', detail: 'gate.baseline: none (no regression check)' };
  if (existsSync(file)) return { status: 'ok', subject: 'baseline', detail: displayPath(file) };
  return {
    status: 'warn',
    subject: 'baseline',
    detail: `${displayPath(file)} not found: eval runs, but regressions are not checked`,
    fix: `after a run you trust: toolgauge baseline update reports/<run-id> -c ${displayPath(configFile)}, and commit the file`,
  };
}
