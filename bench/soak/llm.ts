/**
 * The soak's model: the wire mock of mock-servers/llm with a random fault plan (timeouts, 429 with Retry-After, 500,
 * connection resets, garbage bodies) and a responder that calls the tool a case's prompt names, or answers one of
 * the parser's hostile inputs. Listens on 127.0.0.1 only.
 */
import { type Fault, type LlmMockHandle, type Responder, startLlmMock } from '../../mock-servers/llm/index.js';
import { ADVERSARIAL_INPUTS } from '../../tests/fixtures/parse/adversarial.js';

/** Deterministic PRNG (mulberry32): a soak run is reproducible from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type LlmFaultKind = 'timeout' | 'http-429' | 'http-500' | 'reset' | 'garbage';

/** A fault of each kind; `timeoutMs` is the provider's, so `timeout` outlasts it. */
function faultOf(kind: LlmFaultKind, timeoutMs: number): Fault {
  switch (kind) {
    case 'timeout':
      return { delayMs: timeoutMs + 300 };
    case 'http-429':
      return { status: 429, retryAfter: '0', retryAfterMs: 50, message: 'injected rate limit' };
    case 'http-500':
      return { status: 500, message: 'injected server error' };
    case 'reset':
      return { truncateAfterFrames: 0 };
    case 'garbage':
      return { malformed: true };
  }
}

const KINDS: LlmFaultKind[] = ['timeout', 'http-429', 'http-500', 'reset', 'garbage'];

/** Hostile replies small enough that a few dozen of them keep the run log reasonable (≤ 256 kB each). */
export const HOSTILE = ADVERSARIAL_INPUTS.filter(([, text]) => text.length <= 256 * 1024);

export interface SoakLlm {
  handle: LlmMockHandle;
  /** Faults served so far, by kind (drained from the mock's request log as it grows). */
  faults: Record<LlmFaultKind, number>;
  hostileReplies: number;
  requests: number;
  close(): Promise<void>;
}

/**
 * Prompts name what to do: "Use the <tool> tool." → one call of <tool>; "Reply hostile <n>." → HOSTILE[n] as text.
 * After a tool result the model ends the case with a short text.
 */
const responderWith =
  (onHostile: () => void): Responder =>
  (request) => {
    const last = request.messages[request.messages.length - 1];
    if (last?.role === 'tool') return { text: 'done' };
    const prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
    const hostile = /Reply hostile (\d+)\./.exec(prompt);
    if (hostile) {
      onHostile();
      return { text: HOSTILE[Number(hostile[1]) % HOSTILE.length]?.[1] ?? '' };
    }
    const tool = /Use the (\w+) tool\./.exec(prompt)?.[1] ?? 'whoami';
    return { toolCalls: [{ name: tool, arguments: {} }] };
  };

/** Starts the mock with a fault on each request number up to `maxRequests` with probability `rate`. */
export async function startSoakLlm(opts: {
  seed: number;
  rate: number;
  maxRequests: number;
  timeoutMs: number;
  /** The key requests must carry (the soak's canary: proves it really was sent, and so could leak). */
  apiKey: string;
}): Promise<SoakLlm> {
  const random = prng(opts.seed);
  const byRequest: Record<number, Fault> = {};
  for (let n = 1; n <= opts.maxRequests; n++) {
    if (random() < opts.rate)
      byRequest[n] = faultOf(KINDS[Math.floor(random() * KINDS.length)] ?? 'http-500', opts.timeoutMs);
  }
  const kindOf = (f: Fault): LlmFaultKind =>
    f.delayMs ? 'timeout' : f.status === 429 ? 'http-429' : f.status ? 'http-500' : f.malformed ? 'garbage' : 'reset';
  const soak: SoakLlm = {
    handle: undefined as unknown as LlmMockHandle,
    faults: { timeout: 0, 'http-429': 0, 'http-500': 0, reset: 0, garbage: 0 },
    hostileReplies: 0,
    requests: 0,
    close: async () => {
      clearInterval(timer);
      drain();
      await soak.handle.close();
    },
  };
  soak.handle = await startLlmMock({
    host: '127.0.0.1',
    responder: responderWith(() => {
      soak.hostileReplies++;
    }),
    faults: { byRequest },
    apiKey: opts.apiKey,
  });
  // The mock keeps every request (bodies included): count and drop them so a long soak stays small.
  const drain = () => {
    for (const r of soak.handle.requests.splice(0)) {
      soak.requests++;
      if (r.fault) soak.faults[kindOf(r.fault)]++;
    }
  };
  const timer = setInterval(drain, 500);
  timer.unref();
  return soak;
}
