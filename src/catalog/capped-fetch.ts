/** The `fetch` the MCP SDK's Streamable HTTP client transport takes. */
type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` whose response bodies stop at `maxBytes`: past it, the body errors and `onOver` is called once, so a server
 * that answers with hundreds of MB (one huge JSON response, or an SSE stream that never ends an event) costs at most
 * the limit in memory. The MCP SDK's HTTP client transport reads whole responses (`response.json()`, an SSE parser
 * that buffers an event until it ends) with no limit of its own; its stdio transport stops at 10 MiB a message.
 * Redirects pass unchanged (the transport follows or refuses them by their headers).
 */
export function cappedFetch(maxBytes: number, onOver: () => void, base: Fetch = fetch): Fetch {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body || (response.status >= 300 && response.status < 400)) return response;
    let seen = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) {
          onOver();
          controller.error(new Error(`response body over the ${maxBytes}-byte limit`));
          return;
        }
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
