import type { Config } from '../config/config-schema.js';
import type { Finding } from './finding.js';

/** The provider options' defaults (providers/shared/options.ts) that sizing depends on. */
const PROVIDER_CONCURRENCY = 4;
const PROVIDER_TIMEOUT_MS = 120_000;

/** A turn timeout below this is sized for a hosted API; a local CPU server needs minutes for a 3–4k-token prompt. */
const LOCAL_TURN_MS = 120_000;

function isLocal(id: string, baseURL: unknown): boolean {
  if (id.startsWith('ollama:')) return true;
  if (typeof baseURL !== 'string' || !URL.canParse(baseURL)) return false;
  return /^(127\.\d+\.\d+\.\d+|localhost|\[::1\]|0\.0\.0\.0)$/.test(new URL(baseURL).hostname);
}

/**
 * Settings sized for a hosted API used with a server on this machine (docs/providers.md, "Sizing timeouts, concurrency
 * and rpm"): more cases in flight than the provider takes (queued requests count against the turn timeout), and a turn
 * timeout a CPU server cannot meet.
 */
export function checkSizing(config: Config): Finding[] {
  const out: Finding[] = [];
  for (const entry of config.providers) {
    const id = typeof entry === 'string' ? entry : entry.id;
    const options = typeof entry === 'string' ? {} : (entry.options ?? {});
    if (!isLocal(id, options.baseURL)) continue;
    const subject = `sizing for ${id}`;
    const slots = typeof options.concurrency === 'number' ? options.concurrency : PROVIDER_CONCURRENCY;
    const problems: string[] = [];
    const fixes: string[] = [];
    if (config.concurrency > slots) {
      problems.push(
        `${config.concurrency} cases in flight for ${slots} request slot(s): the queued ones wait inside their turn timeout`,
      );
      fixes.push(`concurrency: ${slots} (or the provider's concurrency: the server's parallel slots)`);
    }
    if (config.timeouts.turnMs < LOCAL_TURN_MS) {
      problems.push(`timeouts.turnMs ${config.timeouts.turnMs} is sized for a hosted API`);
      fixes.push('timeouts.turnMs: 300000 on a CPU, 120000–180000 on one GPU');
    }
    const httpMs = typeof options.timeoutMs === 'number' ? options.timeoutMs : PROVIDER_TIMEOUT_MS;
    if (httpMs < Math.min(config.timeouts.turnMs, LOCAL_TURN_MS)) {
      problems.push(`the provider's timeoutMs ${httpMs} ends a reply before the turn timeout does`);
      fixes.push(`options.timeoutMs: ${config.timeouts.turnMs}`);
    }
    out.push(
      problems.length === 0
        ? {
            status: 'ok',
            subject,
            detail: `local server: ${config.concurrency} case(s) in flight, turns of ${config.timeouts.turnMs} ms`,
          }
        : {
            status: 'warn',
            subject,
            detail: problems.join('; '),
            fix: `${fixes.join('; ')} (docs/providers.md: sizing for local servers)`,
          },
    );
  }
  return out;
}
