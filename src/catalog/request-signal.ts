/** What cancels a request (the run interrupted, the case timed out): the case's CaseAbort. */
export interface Cancellation {
  readonly signal: AbortSignal;
}

/**
 * Runs one MCP request with a signal of its own, which follows `cancel` while the request is in flight and no longer.
 * The SDK adds an abort listener to a request's signal and never removes it: on the case's one signal, a case's many
 * calls (or a long paginated tools/list) piled listeners up (Node's MaxListenersExceededWarning) and, when the case's
 * signal fired at its end, sent a cancellation for every request already answered.
 */
export async function withRequestSignal<T>(
  cancel: Cancellation | undefined,
  run: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (!cancel) return run(undefined);
  const own = new AbortController();
  const follow = () => own.abort(cancel.signal.reason);
  if (cancel.signal.aborted) follow();
  else cancel.signal.addEventListener('abort', follow, { once: true });
  try {
    return await run(own.signal);
  } finally {
    cancel.signal.removeEventListener('abort', follow);
  }
}
