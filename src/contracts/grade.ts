import type { Protocol } from './model.js';
import type { SuiteCase } from './suite.js';
import type { ToolDef } from './tool.js';
import type { Transcript } from './transcript.js';

export interface Grade {
  grader: string;
  pass: boolean;
  /** 0..1; equals 1/0 for binary graders. */
  score: number;
  /** Human-readable: why it passed or failed, naming the call/parameter involved. */
  reason: string;
  data?: Record<string, unknown>;
}

export interface GradeInput {
  case: SuiteCase;
  transcript: Transcript;
  /** The protocol the request asked for. */
  protocol: Protocol;
  /**
   * The tools the model was offered (after filtering, distractors included), as their servers define them: what
   * arguments are validated against.
   */
  tools: ToolDef[];
  /**
   * The same tools as the model read them, when a catalog variant rewrote, stripped or cut their descriptions; absent:
   * as in `tools`. For explanations only (a confusion's two descriptions side by side), never for validation.
   */
  shown?: ToolDef[];
}

/**
 * A pure function of the transcript and the case. Returns null when it does not apply to the case.
 *
 * In a scripted conversation (a case with `turns`), a grader of scope `turn` (the default) grades each user message
 * on its own: its input is the case with that message as `prompt` and the message's `expect`, and the transcript of
 * the model turns that answered it; the case's grade combines them and names the first turn that failed. A grader of
 * scope `conversation` grades the whole case once (the state left behind: `final-state`).
 */
export interface Grader {
  name: string;
  description: string;
  scope?: 'turn' | 'conversation';
  grade(input: GradeInput): Grade | null;
}
