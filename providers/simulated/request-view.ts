import type { ModelRequest, Protocol, RenderedTool } from '../../src/contracts/index.js';
import { allResults, type FedResult, isAfterResults, latestResults } from './result-reader.js';

/**
 * What a rendered request actually reveals to a model. Personas decide only from this (never from the
 * renderer's name): which tools and parameter names are visible, whether fences are forbidden, where the
 * conversation stands.
 */
export interface RequestView {
  request: ModelRequest;
  protocol: Protocol;
  /** The first user message (the task). */
  prompt: string;
  /** The task is written in Chinese: personas answer in Chinese. */
  chinese: boolean;
  forbidsFences: boolean;
  afterResults: boolean;
  /** Results of the latest batch (empty before any call). */
  latest: FedResult[];
  /** Every result fed back since the latest user message (all of them, in a one-message case). */
  results: FedResult[];
  /** Every result fed back in the whole conversation. */
  allResults: FedResult[];
  /** The name to call `tool` by, or null when the request does not reveal the tool. */
  callName(tool: string): string | null;
  /** Whether the request reveals the parameter name `param` of `tool`. */
  paramRevealed(tool: string, param: string): boolean;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Compiled whole-identifier patterns by word: personas ask about the same few tool and parameter names on every turn
 * of every case. Bounded; a pattern is a pure function of its word, so keeping it changes no answer.
 */
const patterns = new Map<string, RegExp>();
const MAX_PATTERNS = 1024;

/** `word` appears in `text` as a whole identifier (not inside a longer identifier). */
export function mentions(text: string, word: string): boolean {
  if (!word || !text.includes(word)) return false;
  let pattern = patterns.get(word);
  if (!pattern) {
    if (patterns.size >= MAX_PATTERNS) patterns.clear();
    pattern = new RegExp(`(?<![A-Za-z0-9_])${escapeRegex(word)}(?![A-Za-z0-9_])`);
    patterns.set(word, pattern);
  }
  return pattern.test(text);
}

const FENCE_WORDS = /code ?blocks?|code ?fences?|fenced|markdown|```|代码块/i;
const NEGATIONS = /\b(never|not|no|don't|do not|without|avoid|must not)\b|不要|禁止|不得|切勿|勿/i;

/** A sentence of the system prompt both names code fences/markdown and negates them. */
export function forbidsFences(system: string): boolean {
  return system
    .split(/[\n!?。！？；;]|\.(?=\s|$)/)
    .some((sentence) => FENCE_WORDS.test(sentence) && NEGATIONS.test(sentence));
}

/** The request's rendered tool for a catalog tool: by `target.tool`, else by exact or mangled name. */
export function findRendered(tools: RenderedTool[] | undefined, tool: string): RenderedTool | undefined {
  if (!tools) return undefined;
  return (
    tools.find((t) => t.target.tool === tool) ??
    tools.find((t) => t.name === tool) ??
    tools.find((t) => t.name.endsWith(`__${tool}`) || t.name.endsWith(`--${tool}`))
  );
}

function schemaParams(rendered: RenderedTool | undefined): string[] {
  const props = rendered?.parameters.properties;
  return props && typeof props === 'object' ? Object.keys(props) : [];
}

/**
 * The view of a request. What not every persona reads (the fence rule, the results fed back, the task's language)
 * is worked out on first read: the oracle never asks about fences, and splitting the system prompt into sentences on
 * every turn was most of its cost per turn. A class, so each view is one small object (an object literal with
 * getters makes its accessors afresh for every view).
 */
class LazyRequestView implements RequestView {
  readonly protocol: Protocol;
  readonly prompt: string;
  readonly afterResults: boolean;
  private chineseMemo: boolean | undefined;
  private fencesMemo: boolean | undefined;
  private latestMemo: FedResult[] | undefined;
  private resultsMemo: FedResult[] | undefined;
  private allResultsMemo: FedResult[] | undefined;

  constructor(readonly request: ModelRequest) {
    this.protocol = request.protocol;
    this.prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
    this.afterResults = isAfterResults(request.messages);
  }

  get chinese(): boolean {
    this.chineseMemo ??= /[\u4e00-\u9fff]/.test(this.prompt);
    return this.chineseMemo;
  }

  get forbidsFences(): boolean {
    this.fencesMemo ??= forbidsFences(this.request.system);
    return this.fencesMemo;
  }

  get latest(): FedResult[] {
    this.latestMemo ??= latestResults(this.request.messages);
    return this.latestMemo;
  }

  get results(): FedResult[] {
    this.resultsMemo ??= allResults(this.request.messages, true);
    return this.resultsMemo;
  }

  get allResults(): FedResult[] {
    this.allResultsMemo ??= allResults(this.request.messages);
    return this.allResultsMemo;
  }

  callName(tool: string): string | null {
    const rendered = findRendered(this.request.tools, tool);
    if (rendered) return rendered.name;
    // A native call must name a function the API was given; text protocols only need the name in the prompt.
    if (this.request.protocol === 'native') return null;
    return mentions(this.request.system, tool) ? tool : null;
  }

  paramRevealed(tool: string, param: string): boolean {
    if (schemaParams(findRendered(this.request.tools, tool)).includes(param)) return true;
    return mentions(this.request.system, param);
  }
}

export function viewOf(request: ModelRequest): RequestView {
  return new LazyRequestView(request);
}
