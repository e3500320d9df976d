import { ToolgaugeError } from '../errors.js';
import { depthExceeds, MAX_JSON_DEPTH } from '../util/json-depth.js';
import { printable } from '../util/printable.js';

/** The most tools one server may list: far above any real catalog, low enough that a listing cannot take the memory. */
export const MAX_LISTED_TOOLS = 10_000;
/** The most pages of tools/list read from one server. */
export const MAX_LIST_PAGES = 1_000;

/**
 * Bounds a paginated tools/list: a server that always answers with a next cursor (a runaway or hostile one, or one
 * that sends the same cursor again) would otherwise be listed for ever, its tools piling up. `next` is called after
 * each page with the page's cursor, and throws once the listing goes past a bound.
 */
export function listingBounds(server: string): { next(cursor: string | undefined, tools: number): void } {
  const cursors = new Set<string>();
  let pages = 0;
  const stop = (why: string) =>
    new ToolgaugeError(
      'SERVER_BAD_RESPONSE',
      `MCP server '${server}' ${why} in tools/list: the listing was stopped (a server's catalog is read up to ${MAX_LISTED_TOOLS} tools in ${MAX_LIST_PAGES} pages)`,
      { server, tool: 'tools/list', pages, maxTools: MAX_LISTED_TOOLS, maxPages: MAX_LIST_PAGES },
    );
  return {
    next(cursor, tools) {
      pages++;
      if (tools > MAX_LISTED_TOOLS) throw stop(`listed more than ${MAX_LISTED_TOOLS} tools`);
      if (cursor === undefined || cursor === '') return;
      if (cursors.has(cursor)) throw stop(`sent a cursor it had sent before (after ${pages} pages)`);
      if (pages >= MAX_LIST_PAGES) throw stop(`went on past ${MAX_LIST_PAGES} pages`);
      cursors.add(cursor);
    },
  };
}

/**
 * Refuses a listed tool whose input schema (or annotations) nests deeper than MAX_JSON_DEPTH, as a config or suite
 * file that does is refused: the renderers, the schema checks and the run log walk schemas, and a schema nested
 * thousands deep ran them out of stack (an INTERNAL error in every case). No real schema comes near it.
 */
export function checkToolDepth(
  server: string,
  tool: { name: string; inputSchema: unknown; annotations?: unknown },
): void {
  if (!depthExceeds({ inputSchema: tool.inputSchema, annotations: tool.annotations }, MAX_JSON_DEPTH)) return;
  throw new ToolgaugeError(
    'SERVER_BAD_RESPONSE',
    `MCP server '${server}' lists the tool '${printable(tool.name.slice(0, 100))}' with an input schema nested deeper than ${MAX_JSON_DEPTH - 1} levels, past what toolgauge reads: the listing was stopped`,
    { server, tool: 'tools/list' },
  );
}
