import { resolve } from 'node:path';
import { type LoadedConfig, loadConfig, loadSuites } from '../config/load-config.js';
import type { LoadedSuite } from '../config/load-suite.js';
import { suiteHashes } from '../config/suite-hash.js';
import { checkBaseline } from '../doctor/check-baseline.js';
import { checkExpectedCalls } from '../doctor/check-expected-calls.js';
import { checkNode } from '../doctor/check-node.js';
import { checkProviders } from '../doctor/check-providers.js';
import { checkSuites } from '../doctor/check-servers.js';
import { checkSizing } from '../doctor/check-sizing.js';
import { type Finding, formatFinding } from '../doctor/finding.js';
import { errorMessage } from '../errors.js';
import { configHash } from '../report/measured-config.js';
import { displayPath } from '../util/display-path.js';
import { redactText } from '../util/redact.js';
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
  const suiteFindings = await checkSuites(config.suites, loaded.dir, config.timeouts.serverStartMs);
  for (const f of suiteFindings) report(f);
  // what eval checks before it calls a model: every expected call names a tool the servers list, with its parameters
  const suites = suiteFindings.some((f) => f.status === 'fail') ? undefined : loadedSuites(loaded);
  if (suites) report(await checkExpectedCalls(suites, config.timeouts.serverStartMs));
  const hash = suites ? configHash({ config, suites: [], suiteHashes: suiteHashes(suites) }) : undefined;
  report(checkBaseline(config.gate, loaded.dir, loaded.file, hash, resolve(loaded.dir, config.out)));
  return summarize(findings);
}

/** The config's suites, or undefined when one does not load (its finding says why). */
function loadedSuites(loaded: LoadedConfig): LoadedSuite[] | undefined {
  try {
    return loadSuites(loaded);
  } catch {
    return undefined;
  }
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
