import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { providerResponder, serveLlm } from '../../mock-servers/llm/index.js';
import { builtinServers } from '../../mock-servers/mcp/index.js';
import { serveHttp, serveStdio } from '../../mock-servers/mcp/serve.js';
import { simFactory } from '../../providers/simulated/index.js';
import { resolveSuitePath } from '../config/load-config.js';
import { loadSuite } from '../config/load-suite.js';
import { ToolgaugeError } from '../errors.js';
import { packageRoot } from '../util/package-root.js';
import { caseOracles } from './case-oracles.js';

/** Keeps serving until SIGINT/SIGTERM (or stdin closes, for stdio). */
export async function serveMcpCommand(
  name: string,
  httpPort: number | undefined,
  limits: { maxBodyBytes?: number } = {},
): Promise<number> {
  const server = builtinServers[name as keyof typeof builtinServers];
  if (!server) {
    throw new ToolgaugeError(
      'UNKNOWN_SERVER',
      `unknown built-in server '${name}'; valid: ${Object.keys(builtinServers).join(', ')}`,
    );
  }
  // Listen for signals before the "ready" line: a client may signal as soon as it reads it, and with no listener
  // yet Node's default action kills the process on the spot.
  const stopped = waitForSignal();
  if (httpPort === undefined) {
    const handle = await serveStdio(server);
    // The transport keeps reading stdin, so a signal alone would not end the process (Ctrl-C in a terminal,
    // or a client that sends SIGTERM before closing the pipe): close the server, which stops reading stdin.
    await Promise.race([stopped, new Promise<void>((resolve) => process.stdin.once('close', () => resolve()))]);
    await handle.close();
    return 0;
  }
  const handle = await onPort('--http', httpPort, () => serveHttp(server, { port: httpPort, ...limits }));
  process.stderr.write(
    `toolgauge mock MCP server '${name}' (${server.toolCount} tools) on ${handle.url}\n` +
      'every MCP session starts from a fresh server state, as every stdio process does\n',
  );
  await stopped;
  await handle.close();
  return 0;
}

/** The bundled suites (suites/*.yaml of the package; the imported BFCL suites sit in a subfolder). */
function bundledSuiteFiles(): string[] {
  const dir = join(packageRoot(), 'suites');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => join(dir, f));
}

export async function serveLlmCommand(
  port: number,
  persona: string,
  suiteSpecs: string[] = [],
  limits: { maxBodyBytes?: number } = {},
): Promise<number> {
  const provider = simFactory.create(persona, {}, { env: process.env });
  // A request over the wire carries no case: recognise the cases of these suites by their prompt, so sim:oracle
  // (and the personas built on it) can answer them as in a local run.
  const cwd = process.cwd();
  const suites = suiteSpecs.length
    ? suiteSpecs.map((s) => loadSuite(resolveSuitePath(s, cwd)))
    : bundledSuiteFiles().map((file) => loadSuite(file));
  const oracles = caseOracles(suites);
  const stopped = waitForSignal();
  const handle = await onPort('--port', port, () =>
    serveLlm({
      port,
      responder: providerResponder(provider, (request) => oracles.lookup(request.messages)),
      ...limits,
    }),
  );
  process.stderr.write(
    `answers come from the simulated persona ${provider.id}; it knows the expectations of ${oracles.cases} case(s) ` +
      `of ${suites.map((s) => s.suite.name).join(', ')}, recognised by their prompt\n`,
  );
  if (oracles.ambiguous.length) {
    process.stderr.write(
      `note: ${oracles.ambiguous.length} case(s) share a prompt with an earlier case that expects something else; the first one wins: ${oracles.ambiguous.slice(0, 5).join(', ')}\n`,
    );
  }
  await stopped;
  await handle.close();
  return 0;
}

/** Errors of listen() that come from the port the user chose, not from the server: what to tell the user. */
const PORT_ERRORS: Readonly<Record<string, (port: number) => string>> = {
  EADDRINUSE: (port) => `port ${port} is already in use on 127.0.0.1`,
  EACCES: (port) => `port ${port} needs privileges to listen on`,
  EADDRNOTAVAIL: (port) => `port ${port} is not available on 127.0.0.1`,
};

/**
 * Starts a server on the port given by `flag`: a port that is busy or refused is a usage error (exit 2) naming the
 * flag and the port, whichever server failed and however it wrapped the listen() error.
 */
async function onPort<T>(flag: string, port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (e) {
    const why = portError(e, port);
    if (!why) throw e;
    throw new ToolgaugeError(
      'USAGE',
      `${flag} ${port}: ${why}; choose another port, or 0 for any free one`,
      { port },
      {
        cause: e,
      },
    );
  }
}

/** What PORT_ERRORS says of `e` or of an error it wraps (its cause), if it is one of them. */
function portError(e: unknown, port: number): string | undefined {
  for (let cur: unknown = e; cur instanceof Error; cur = cur.cause) {
    const code = (cur as NodeJS.ErrnoException).code;
    const say = typeof code === 'string' ? PORT_ERRORS[code] : undefined;
    if (say) return say(port);
  }
  return undefined;
}

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
