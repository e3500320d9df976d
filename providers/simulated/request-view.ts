import type { Protocol, RenderedTool } from '../../src/contracts/index.js';
import { allResults, type FedResult, isAfterResults, latestResults } from './result-reader.js';
import type { PersonaRequest } from './types.js';

/**
 * What a rendered request actually reveals to a model. Personas decide only from this (never from the
 * renderer's name): which tools and parameter names are visible, whether fences are forbidden, where the
 * conversation stands.
 */
export interface RequestView {
  request: PersonaRequest;
  protocol: Protocol;
  /** The first user message (the task). */
  prompt: string;
  /** The task is written in Chinese: personas answer in Chinese. */
  chinese: boolean;
  forbidsFences: boolean;
  afterResults: boolean;
  /** Results of the latest batch (empty before any call). Searches (a tool-search request's) are not results. */
  latest: FedResult[];
  /** Every result fed back since the latest user message (all of them, in a one-message case), searches aside. */
  results: FedResult[];
  /** Every result fed back in the whole conversation, searches aside. */
  allResults: FedResult[];
  /** The request's search tool (a tool-search strategy), if any. */
  searchTool: string | undefined;
  /** What the searches made so far in the whole conversation returned, in order (what they loaded stays loaded). */
  searches: FedResult[];
  /** Searches since the last tool result or user message: the tries spent on the tool needed now. */
  searchesSinceResult: number;
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

  readonly searchTool: string | undefined;
  private searchesMemo: FedResult[] | undefined;

  constructor(readonly request: PersonaRequest) {
    this.protocol = request.protocol;
    this.prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
    this.searchTool = request.toolSearch?.tool;
    // a search's result is not a tool's: after one, the model goes on to call what it found
    this.afterResults = this.searchTool ? this.latest.length > 0 : isAfterResults(request.messages);
  }

  private allMemo: FedResult[] | undefined;

  /** Every result fed back, searches included, read once per view. */
  private get all(): FedResult[] {
    this.allMemo ??= allResults(this.request.messages);
    return this.allMemo;
  }

  get searchesSinceResult(): number {
    if (!this.searchTool) return 0;
    let n = 0;
    for (const r of allResults(this.request.messages, true)) n = r.name === this.searchTool ? n + 1 : 0;
    return n;
  }

  get searches(): FedResult[] {
    this.searchesMemo ??= this.searchTool ? this.all.filter((r) => r.name === this.searchTool) : [];
    return this.searchesMemo;
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
    this.latestMemo ??= this.withoutSearches(latestResults(this.request.messages));
    return this.latestMemo;
  }

  get results(): FedResult[] {
    this.resultsMemo ??= this.withoutSearches(allResults(this.request.messages, true));
    return this.resultsMemo;
  }

  get allResults(): FedResult[] {
    this.allResultsMemo ??= this.withoutSearches(this.all);
    return this.allResultsMemo;
  }

  private withoutSearches(results: FedResult[]): FedResult[] {
    return this.searchTool ? results.filter((r) => r.name !== this.searchTool) : results;
  }

  callName(tool: string): string | null {
    const rendered = findRendered(this.request.tools, tool);
    if (rendered) return rendered.name;
    // A native call must name a function the API was given; text protocols only need the name in the prompt (or, for
    // a tool a search found, in the search's result).
    if (this.request.protocol === 'native') return null;
    if (this.searchTool) {
      // behind a search, a tool is callable once defined (eager, or in a search's result), not when merely mentioned
      const defined = (text: string) => text.includes(`## ${tool}\n`);
      return defined(this.request.system) || this.searches.some((r) => defined(r.content)) ? tool : null;
    }
    return mentions(this.request.system, tool) ? tool : null;
  }

  paramRevealed(tool: string, param: string): boolean {
    if (schemaParams(findRendered(this.request.tools, tool)).includes(param)) return true;
    return mentions(this.request.system, param) || this.searches.some((r) => mentions(r.content, param));
  }
}

export function viewOf(request: PersonaRequest): RequestView {
  return new LazyRequestView(request);
}
