import type { Cancellation } from '../catalog/mcp-connection.js';
import type { CaseSession } from '../catalog/server-pool.js';
import type { ObservedState, ProbeReading, ViewReading } from '../contracts/state.js';
import type { StateFact } from '../contracts/suite.js';
import { canonicalJson } from '../util/canonical-json.js';
import { samePath, valueAt } from '../util/state-path.js';

/** What reading a case's state needs of the run: the suite's server names, the session, a bound per request. */
export interface StateAccess {
  /** The suite's servers (names under `servers:`): a fact without a server reads the only one. */
  servers: readonly string[];
  session: CaseSession;
  timeoutMs: number;
  cancel?: Cancellation;
}

/**
 * Reads what a case's state facts name, once its conversation ended and before its servers are released: each
 * server's state view once (only the values at the facts' paths are kept), and each distinct probe once. A view that
 * cannot be read, or a probe the tool answers with an error, is data the `final-state` grader judges (the fact is not
 * held); a server that fails the request is an infrastructure error (it throws).
 */
export async function observeState(facts: readonly StateFact[], access: StateAccess): Promise<ObservedState> {
  const only = access.servers.length === 1 ? access.servers[0] : undefined;
  const views: ViewReading[] = [];
  const probes: ProbeReading[] = [];
  const read = new Map<string, Promise<{ value: unknown } | { error: string }>>();
  for (const fact of facts) {
    if (fact.probe) {
      const server = fact.probe.server ?? only ?? '';
      const args = fact.probe.args ?? {};
      const known = probes.some(
        (p) => p.server === server && p.tool === fact.probe?.tool && canonicalJson(p.args) === canonicalJson(args),
      );
      if (known) continue;
      const out = server
        ? await access.session.call(server, fact.probe.tool, args, access.timeoutMs, access.cancel)
        : { text: "the suite has several servers: name the probe's server (probe.server)", isError: true };
      probes.push({ server, tool: fact.probe.tool, args, result: out.text, isError: out.isError });
      continue;
    }
    const server = fact.server ?? only ?? '';
    const path = fact.path ?? [];
    if (views.some((v) => v.server === server && samePath(v.path, path))) continue;
    let view = read.get(server);
    if (!view) {
      view = server
        ? access.session.readState(server, access.timeoutMs, access.cancel)
        : Promise.resolve({ error: "the suite has several servers: name the fact's server" });
      read.set(server, view);
    }
    const state = await view;
    if ('error' in state) {
      views.push({ server, path, found: false, error: state.error });
      continue;
    }
    const at = valueAt(state.value, path);
    views.push(at.found ? { server, path, found: true, value: at.value } : { server, path, found: false });
  }
  return { views, probes };
}
