import type { LoadedSuite } from '../config/load-suite.js';
import { findCase } from '../config/suite-cases.js';
import type { Protocol } from '../contracts/model.js';
import type { ParseContext } from '../contracts/parse.js';
import type { Transcript, Turn } from '../contracts/transcript.js';
import { ToolgaugeError } from '../errors.js';
import { parseResponse } from '../parse/index.js';
import type { RecordedTurn } from './output-line.js';

/** The protocol a recorded line was produced under: native when it carries tool calls, else the text protocol. */
/** The protocols a recorded reply can be read in (`--protocol` of grade and parse). */
export const RECORDED_PROTOCOLS: readonly Protocol[] = ['xml-tags', 'json', 'python-call', 'tool-named-xml', 'native'];

/** The protocol `--protocol` names; another word is a usage error listing the valid ones. */
export function protocolFlag(flag: string): Protocol {
  if (RECORDED_PROTOCOLS.includes(flag as Protocol)) return flag as Protocol;
  throw new ToolgaugeError('USAGE', `--protocol ${flag}: unknown protocol; valid: ${RECORDED_PROTOCOLS.join(', ')}`);
}

/** The text protocol a suite's recorded replies are read in by default: python-call for a suite imported from BFCL, else xml-tags. */
export function textProtocolOf(loaded: LoadedSuite): Protocol {
  const imported =
    loaded.suite.name.startsWith('bfcl') || findCase(loaded.cases, (c) => c.functions !== undefined) !== undefined;
  return imported ? 'python-call' : 'xml-tags';
}

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
