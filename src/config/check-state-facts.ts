import type { StateFact, SuiteCase } from '../contracts/suite.js';
import type { SuiteTools } from './check-expectations.js';
import { checkParameters } from './check-parameters.js';
import type { SuiteHead } from './load-suite.js';
import type { SemanticIssue } from './load-yaml.js';
import { listNames, suggestion } from './name-suggestion.js';

/**
 * One state fact: its server is one of the suite's (or the suite has exactly one), and a probe's tool is one the
 * server lists (filters do not apply: a probe is the harness's call, never offered to the model) with parameters it
 * declares.
 */
export function checkFact(
  fact: StateFact,
  at: PropertyKey[],
  servers: readonly string[],
  tools: SuiteTools,
): SemanticIssue[] {
  const named = fact.probe ? fact.probe.server : fact.server;
  const serverPath = fact.probe ? [...at, 'probe', 'server'] : [...at, 'server'];
  if (named === undefined && servers.length !== 1)
    return [
      {
        path: fact.probe ? [...at, 'probe'] : at,
        message:
          servers.length === 0
            ? 'a state fact reads a server, and this suite has none (`servers:`)'
            : `the suite has ${servers.length} servers: name the one the fact reads (${fact.probe ? 'probe.server' : 'server'}: ${listNames(servers)})`,
      },
    ];
  if (named !== undefined && !servers.includes(named))
    return [
      {
        path: serverPath,
        message: `no server named '${named}' in this suite${suggestion(named, servers)}; its servers: ${listNames(servers)}`,
      },
    ];
  if (!fact.probe || tools.serverTools.length === 0) return [];
  const server = named ?? servers[0];
  const own = tools.serverTools.filter((t) => t.server === server);
  const tool = own.find((t) => t.name === fact.probe?.tool);
  if (!tool)
    return [
      {
        path: [...at, 'probe', 'tool'],
        message: `server '${server}' has no tool '${fact.probe.tool}'${suggestion(
          fact.probe.tool,
          own.map((t) => t.name),
        )}; its tools: ${listNames(own.map((t) => t.name))}`,
      },
    ];
  const mentioned = Object.keys(fact.probe.args ?? {}).map((name) => ({ name, path: ['probe', 'args', name] }));
  return checkParameters(fact.probe.tool, tool, mentioned, at);
}

/**
 * The servers of a suite whose state its facts judge but which every case shares: a stdio server without `isolate`
 * (started once per run), so one case's writes are the next case's starting state, and at concurrency > 1 a fact may
 * read another case's writes. Bundled servers are fresh per case, and an HTTP server gets a session per case.
 */
export function sharedStateServers(suite: SuiteHead, cases: Iterable<SuiteCase>): string[] {
  const servers = Object.entries(suite.servers ?? {});
  const shared = new Set(
    servers.filter(([, spec]) => 'command' in spec && spec.isolate !== true).map(([name]) => name),
  );
  if (shared.size === 0) return [];
  const only = servers.length === 1 ? servers[0]?.[0] : undefined;
  const judged = new Set<string>();
  for (const c of cases) {
    for (const fact of c.expect.state ?? []) {
      const server = (fact.probe ? fact.probe.server : fact.server) ?? only;
      if (server !== undefined && shared.has(server)) judged.add(server);
    }
    if (judged.size === shared.size) break;
  }
  return [...judged];
}
