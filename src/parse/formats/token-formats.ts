import type { Finder } from '../found-call.js';
import { findApertusCalls } from './apertus.js';
import { findCommandRCalls } from './command-r.js';
import { findFunctionaryCalls } from './functionary.js';
import { findGemmaCalls } from './gemma.js';
import { findGraniteCalls } from './granite.js';
import { findHarmonyCalls } from './harmony.js';
import { findInternlmCalls } from './internlm.js';
import { findKimiCalls } from './kimi.js';
import { findKimiXtmlCalls } from './kimi-xtml.js';
import { findLfm2Calls } from './lfm2.js';
import { findLlamaCalls } from './llama.js';
import { findMistralCalls } from './mistral.js';
import { findPhiCalls } from './phi.js';
import { findSolarCalls } from './solar.js';

/**
 * Model families whose calls are framed by special tokens and carry JSON (or python-call) arguments, in the order
 * they claim text. Each finder returns quickly when its tokens are absent. A family whose region runs on to a closing
 * token or the next message, and so can hold other families' tokens in its content, claims first: harmony messages,
 * then the families with open and close tokens (Kimi K2 and K3, Solar Open, Gemma, Command, InternLM, Apertus, LFM2), then those whose call is a token and
 * a JSON value (Granite, Mistral, Llama, Phi), and last functionary, whose v3 `>>>` is the weakest marker.
 */
export const TOKEN_FORMATS: readonly Finder[] = [
  findHarmonyCalls,
  findKimiCalls,
  findKimiXtmlCalls,
  findSolarCalls,
  findGemmaCalls,
  findCommandRCalls,
  findInternlmCalls,
  findApertusCalls,
  findLfm2Calls,
  findGraniteCalls,
  findMistralCalls,
  findLlamaCalls,
  findPhiCalls,
  findFunctionaryCalls,
];
