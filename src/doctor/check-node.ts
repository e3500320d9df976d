import type { Finding } from './finding.js';

/** The oldest Node toolgauge runs on (package.json `engines`). */
export const MIN_NODE = [20, 19] as const;

export function checkNode(version = process.versions.node): Finding {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return {
    status: ok ? 'ok' : 'fail',
    subject: 'node',
    detail: `v${version} (toolgauge needs ${MIN_NODE.join('.')} or later)`,
    fix: `install Node ${MIN_NODE.join('.')}+ (e.g. nvm install 20)`,
  };
}
