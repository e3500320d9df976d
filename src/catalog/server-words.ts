import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { errorMessage } from '../errors.js';
import { visibleLine } from '../util/visible-text.js';

/** How much of a server's own words an error message quotes. */
const QUOTED_CHARS = 300;

/**
 * What an MCP client error says, as one bounded line for a message of ours: the SDK's HTTP transport puts the whole
 * body of a refused request into its error (a web server's HTML error page, up to the 10 MiB read), which was printed
 * line by line. The HTTP status, which it keeps apart, goes first.
 */
export function serverWords(e: unknown): string {
  const http = e instanceof StreamableHTTPError && typeof e.code === 'number' && e.code > 0 ? `HTTP ${e.code}: ` : '';
  return `${http}${visibleLine(errorMessage(e), QUOTED_CHARS)}`;
}
