import { redactText } from '../../providers/shared/redact.js';
import { loadConfig } from '../config/load-config.js';
import { displayPath } from '../config/load-yaml.js';
import { checkBaseline } from '../doctor/check-baseline.js';
import { checkNode } from '../doctor/check-node.js';
import { checkProviders } from '../doctor/check-providers.js';
import { checkSuites } from '../doctor/check-servers.js';
import { checkSizing } from '../doctor/check-sizing.js';
import { type Finding, formatFinding } from '../doctor/finding.js';
import { errorMessage } from '../errors.js';
import { errorLines } from './terminal-guard.js';

export interface DoctorFlags {
  config?: string;
  suite?: string[];
  provider?: string[];
  providerOption?: string[];
}

/**
 * `toolgauge doctor`: checks what a run needs before it runs — Node, the config, each provider's key or server, each
 * MCP server starting and listing its tools, the baseline — and prints a fix under every problem. Exit 0 when nothing
 * failed (warnings allowed), 1 when something must be fixed.
 */
export async function doctorCommand(flags: DoctorFlags): Promise<number> {
  const findings: Finding[] = [];
  const report = (f: Finding) => {
    findings.push(f);
    // a finding may quote a base URL or an error: credentials in them (userinfo, ?key=) are registered and redacted
    // …and a detail quoting a server's or provider's words keeps every further line indented (errorLines)
    process.stdout.write(`${errorLines(redactText(formatFinding(f)))}\n`);
  };
  report(checkNode());
  let loaded: ReturnType<typeof loadConfig>;
  try {
    loaded = loadConfig(flags.config, {
      ...(flags.suite ? { suites: flags.suite } : {}),
      ...(flags.provider ? { providers: flags.provider } : {}),
      ...(flags.providerOption ? { providerOptions: flags.providerOption } : {}),
    });
    report({ status: 'ok', subject: 'config', detail: displayPath(loaded.file) });
  } catch (e) {
    report({
      status: 'fail',
      subject: 'config',
      detail: errorMessage(e),
      fix: 'pass --config <file>, or write one with toolgauge init (README: Configuration and suites)',
    });
    return summarize(findings);
  }
  const { config } = loaded;
  for (const f of await checkProviders(config.providers, loaded.dir, loaded.origin.providers)) report(f);
  for (const f of checkSizing(config)) report(f);
  for (const f of await checkSuites(config.suites, loaded.dir, config.timeouts.serverStartMs)) report(f);
  report(checkBaseline(config.gate, loaded.dir, loaded.file));
  return summarize(findings);
}

function summarize(findings: readonly Finding[]): number {
  const failed = findings.filter((f) => f.status === 'fail').length;
  const warned = findings.filter((f) => f.status === 'warn').length;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  process.stdout.write(
    failed === 0
      ? `doctor: ready to run${warned ? ` (${plural(warned, 'warning')})` : ''}\n`
      : `doctor: ${plural(failed, 'problem')} to fix${warned ? `, ${plural(warned, 'warning')}` : ''}\n`,
  );
  return failed === 0 ? 0 : 1;
}
