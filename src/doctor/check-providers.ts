import { endpointOf, withQuery } from '../../providers/shared/base-url.js';
import type { ProviderEntry } from '../config/config-schema.js';
import { errorMessage, isToolgaugeError } from '../errors.js';
import { resolveProviders } from '../plugins/index.js';
import type { Finding } from './finding.js';

/** Where a provider's server is when it is one to check (a local or self-hosted one), else undefined. */
function serverOf(id: string, options: Record<string, unknown>, env: NodeJS.ProcessEnv): string | undefined {
  const prefix = id.slice(0, Math.max(0, id.indexOf(':')));
  const baseURL = typeof options.baseURL === 'string' ? options.baseURL : undefined;
  switch (prefix) {
    case 'openai-compatible':
      return baseURL;
    case 'openai':
      return baseURL ?? env.OPENAI_BASE_URL;
    case 'anthropic':
      return baseURL ?? env.ANTHROPIC_BASE_URL;
    case 'ollama':
      return baseURL ?? env.OLLAMA_HOST ?? 'http://127.0.0.1:11434';
    default:
      return undefined;
  }
}

/** Any HTTP answer means a server listens there; only a network failure or no answer in time is a problem. */
async function probe(
  url: string,
  headers: Record<string, string> | undefined,
  timeoutMs: number,
): Promise<{ ok: true; status: number } | { ok: false; why: string }> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), ...(headers ? { headers } : {}) });
    await res.body?.cancel();
    return { ok: true, status: res.status };
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return { ok: false, why: cause?.code ?? cause?.message ?? errorMessage(e) };
  }
}

/**
 * Each provider: can it be made (its options valid, its API key in the environment), and for a provider with a server
 * of its own (a baseURL, Ollama's host), does that server answer?
 */
export async function checkProviders(
  entries: readonly ProviderEntry[],
  baseDir: string,
  where: (i: number) => string,
  probeMs = 5000,
): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const [i, entry] of entries.entries()) {
    const id = typeof entry === 'string' ? entry : entry.id;
    const options = typeof entry === 'string' ? {} : (entry.options ?? {});
    const subject = `provider ${id}`;
    try {
      await resolveProviders([entry], baseDir, () => where(i));
    } catch (e) {
      const code = isToolgaugeError(e) ? e.code : undefined;
      const variable = isToolgaugeError(e) ? (e.details?.variable as string | undefined) : undefined;
      out.push({
        status: 'fail',
        subject,
        detail: errorMessage(e),
        fix:
          code === 'PROVIDER_AUTH' && variable
            ? `export ${variable}=… in this shell (in CI: a secret passed as env ${variable}); never in a config file`
            : `fix the provider entry at ${where(i)} (docs/providers.md has a recipe per server)`,
      });
      continue;
    }
    if (id.startsWith('sim:')) {
      out.push({ status: 'ok', subject, detail: 'simulated: no key, no network' });
      continue;
    }
    const server = serverOf(id, options, process.env);
    if (!server) {
      out.push({ status: 'ok', subject, detail: 'options valid, API key set (hosted API not called)' });
      continue;
    }
    // As the provider sends it: the userinfo as Basic authorization, the query after the path (the provider was made,
    // so its base URL splits without a conflict).
    const endpoint = endpointOf(server, {
      providerId: id,
      source: 'baseURL',
      headers: undefined,
      bearerKeyFrom: undefined,
    });
    const base = endpoint.baseURL.replace(/\/+$/, '');
    const path = `${base}/${id.startsWith('ollama:') ? 'api/tags' : 'models'}`;
    const answer = await probe(withQuery(path, endpoint.query), endpoint.headers, probeMs);
    out.push(
      answer.ok
        ? { status: 'ok', subject, detail: `server ${base} answers (GET ${path}: HTTP ${answer.status})` }
        : {
            status: 'fail',
            subject,
            detail: `server ${base} does not answer (${answer.why})`,
            fix: `start the model server, or correct baseURL at ${where(i)} (docs/providers.md)`,
          },
    );
  }
  return out;
}
