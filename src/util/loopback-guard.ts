import type { IncomingHttpHeaders } from 'node:http';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** `127.0.0.1:8080` / `[::1]:8080` / `localhost` → host name and port (undefined when the header has none). */
function splitHost(hostHeader: string): { name: string; port: string | undefined } {
  if (hostHeader.startsWith('[')) {
    const end = hostHeader.indexOf(']') + 1;
    const rest = hostHeader.slice(end);
    return { name: hostHeader.slice(0, end), port: rest.startsWith(':') ? rest.slice(1) : undefined };
  }
  const [name = '', port] = hostHeader.split(':');
  return { name, port };
}

/**
 * Why a request to a loopback-only server is refused, or undefined when it is accepted: the DNS-rebinding guard.
 * A page on `evil.example` whose name the attacker re-points at 127.0.0.1 reaches the server with `Host:
 * evil.example`, and a page anywhere sends its own `Origin`; so only a loopback Host (with the server's own port,
 * when `port` is given; a Host without one means port 80) and, when sent, a loopback Origin are accepted.
 */
export function loopbackRefusal(headers: IncomingHttpHeaders, port?: number): string | undefined {
  const host = headers.host;
  if (!host) return 'the request has no Host header';
  const { name, port: hostPort } = splitHost(host);
  if (!LOOPBACK.has(name.toLowerCase())) return `Host '${host}' is not a loopback name or address`;
  if (port !== undefined && (hostPort === undefined || hostPort === '' ? 80 : Number(hostPort)) !== port) {
    return `Host '${host}' does not name this server's port ${port}`;
  }
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  let originHost: string;
  try {
    originHost = new URL(origin).hostname.toLowerCase();
  } catch {
    return `Origin '${origin}' is not a loopback origin`;
  }
  return LOOPBACK.has(originHost) ? undefined : `Origin '${origin}' is not a loopback origin`;
}

/** True when {@link loopbackRefusal} accepts the request. */
export function isLoopbackRequest(headers: IncomingHttpHeaders, port?: number): boolean {
  return loopbackRefusal(headers, port) === undefined;
}

/** The body's text for a refused request: what was wrong and what is accepted. */
export function loopbackRefusalMessage(reason: string, port: number): string {
  return (
    `Forbidden: ${reason}. This server answers loopback requests only (Host 127.0.0.1:${port}, ` +
    `localhost:${port} or [::1]:${port}; a browser Origin, when sent, must be loopback too), ` +
    'which keeps other sites from reaching it through DNS rebinding.'
  );
}
