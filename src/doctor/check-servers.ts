import { dirname } from 'node:path';
import { resolveSuitePath } from '../config/load-config.js';
import { loadSuite } from '../config/load-suite.js';
import { errorMessage } from '../errors.js';
import { displayPath } from '../util/display-path.js';
import type { Finding } from './finding.js';

/** Each suite loads, and each MCP server it names starts and lists its tools within `timeoutMs`. */
export async function checkSuites(specs: readonly string[], configDir: string, timeoutMs: number): Promise<Finding[]> {
  const out: Finding[] = [];
  const { connectServer } = await import('../catalog/mcp-connection.js');
  for (const spec of specs) {
    const file = resolveSuitePath(spec, configDir);
    let loaded: ReturnType<typeof loadSuite>;
    try {
      loaded = loadSuite(file);
    } catch (e) {
      out.push({
        status: 'fail',
        subject: `suite ${spec}`,
        detail: errorMessage(e).split('\n')[0] ?? '',
        fix: `fix ${displayPath(file)} as the message says (a suite path is relative to the config file)`,
      });
      continue;
    }
    const servers = Object.entries(loaded.suite.servers ?? {});
    if (servers.length === 0) {
      out.push({ status: 'ok', subject: `suite ${loaded.suite.name}`, detail: 'inline tools only, no server' });
    }
    for (const [name, server] of servers) {
      const subject = `suite ${loaded.suite.name}, server ${name}`;
      // A slow start is announced while it is waited for (on stderr; the findings go to stdout).
      const notify = (line: string) => process.stderr.write(`${line}\n`);
      const bounds = { timeoutMs, setting: 'timeouts.serverStartMs', notify };
      try {
        const conn = await connectServer(name, server, dirname(file), bounds);
        try {
          const tools = await conn.listTools(bounds);
          out.push({ status: 'ok', subject, detail: `started, lists ${tools.length} tools` });
        } finally {
          await conn.close();
        }
      } catch (e) {
        out.push({
          status: 'fail',
          subject,
          detail: errorMessage(e),
          fix: `run the server's command by hand to see why, or correct servers.${name} in ${displayPath(file)}`,
        });
      }
    }
  }
  return out;
}
