import type { Finder } from '../found-call.js';
import { findDeepSeekCalls } from './deepseek.js';
import { findGigachatCalls } from './gigachat.js';
import { findGlmCalls } from './glm.js';
import { findInvokeXmlCalls } from './invoke-xml.js';
import { findMinicpmCalls } from './minicpm.js';
import { findMinimaxCalls } from './minimax.js';
import { findOlmoCalls } from './olmo.js';
import { findToolNamedXmlCalls } from './tool-named-xml.js';

/**
 * Model families whose calls are XML-like markup with text argument values (converted by the tool's schema), in the
 * order they claim text. Each finder returns quickly when its markup is absent.
 *
 * A finder whose values can hold another family's markup goes before it, so that markup stays value text: Cline's
 * `<content>` holds whole files (tool-named XML first), then invoke parameters (MiniMax's blocks before bare invokes,
 * MiniCPM's `<function name=…>` after them), then DeepSeek's and GLM's values,
 * then OLMo's python strings. (A call one finder finds inside a call a later finder reads is dropped as that call's
 * text by parse/index.ts either way; the order matters where an unclosed inner region would run past the outer
 * call's close.) Invoke XML goes before OLMo because they share `<function_calls>`: the invoke finder claims the blocks
 * with `<invoke>` inside, OLMo reads what is left.
 */
export const MARKUP_FORMATS: readonly Finder[] = [
  findToolNamedXmlCalls,
  findMinimaxCalls,
  findInvokeXmlCalls,
  findMinicpmCalls,
  findDeepSeekCalls,
  findGigachatCalls,
  findGlmCalls,
  findOlmoCalls,
];
