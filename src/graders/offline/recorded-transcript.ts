import type { Protocol } from '../../contracts/model.js';
import type { ParseContext } from '../../contracts/parse.js';
import type { Transcript, Turn } from '../../contracts/transcript.js';
import { parseResponse } from '../../parse/index.js';
import type { RecordedTurn } from './output-line.js';

/** The protocol a recorded line was produced under: native when it carries tool calls, else the text protocol. */
export function protocolOf(turns: RecordedTurn[], textProtocol: Protocol, forced?: Protocol): Protocol {
  if (forced) return forced;
  return turns.some((t) => t.toolCalls.length > 0) ? 'native' : textProtocol;
}

/**
 * A transcript built from recorded outputs: one turn per output, parsed exactly as a live reply would be, with
 * `context` naming the tools the case offers (the suite's, built once per case by the caller). The request is
 * unknown offline (empty system prompt and messages); results the application fed back become the turn's
 * executions, so `continued-after-results` can judge multi-turn recordings.
 */
export function recordedTranscript(
  turns: RecordedTurn[],
  protocol: Protocol,
  caseId: string,
  renderer: string,
  context: ParseContext = {},
) {
  const out: Turn[] = turns.map((t, index) => {
    const response = {
      text: t.text,
      toolCalls: t.toolCalls,
      finishReason: 'recorded',
      latencyMs: 0,
      // no wire exchange offline: both sides unknown, written as `"raw":{}` (a 1.7 KB line is mostly serialising)
      raw: { request: undefined, response: undefined },
    };
    return {
      index,
      request: { system: '', messages: [], protocol, meta: { caseId, repeat: 0, seed: 0, renderer, turn: index } },
      response,
      parse: parseResponse(response, protocol, context),
      executed: t.results.map((r, i) => ({
        callId: `recorded_${index}_${i}`,
        name: r.name,
        server: 'recorded',
        tool: r.name,
        args: r.args ?? {},
        result: r.result,
        isError: false,
        durationMs: 0,
      })),
    };
  });
  const transcript: Transcript = {
    turns: out,
    finalText: turns[turns.length - 1]?.text ?? '',
    stopReason: 'answered',
  };
  return transcript;
}
