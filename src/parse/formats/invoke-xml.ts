import {
  atReadLimit,
  emptyFound,
  type FinderContext,
  type Found,
  type FoundCall,
  isIntroducedAsExample,
} from '../found-call.js';
import { TagBodies } from '../tag-bodies.js';
import { attributes, type InvokeReading, openTagEnd, readInvokeArguments } from './invoke-arguments.js';
import { TokenCursor } from './token-scan.js';

/** How one family spells invoke markup: the same block / invoke / parameter grammar with its own tag prefix and names. */
export interface InvokeDialect {
  shape: 'invoke-xml' | 'deepseek' | 'minicpm' | 'minimax' | 'gigachat';
  /** For diagnostics: the markup as a reader knows it. */
  label: string;
  /** Names of the block that wraps invokes (`function_calls`; DeepSeek V4 also `tool_calls`). */
  blocks: readonly string[];
  /** Whether `prefix`, the text between `<` and the tag name, is this dialect's (`` or `ns:`; `｜DSML｜`). */
  isPrefix(prefix: string): boolean;
  /** The longest prefix the dialect accepts (how far back from a tag name its `<` is looked for). */
  maxPrefix: number;
  /** DSML's `string="true|false"` attribute: "true" keeps the text, "false" says the value is JSON. */
  typedByAttribute: boolean;
  /** The invoke element's name (default `invoke`; MiniCPM's is `function`). */
  invoke?: string;
  /** The parameter element's name (default `parameter`; MiniCPM's is `param`). */
  parameter?: string;
  /** Invokes are read only inside a block (MiniMax M2: a bare `<invoke>` is Anthropic-style markup, not MiniMax's). */
  blockOnly?: boolean;
  /** The prefix of the invokes inside a block whose tag has `blockPrefix` (default: the block's own). */
  innerPrefix?: (blockPrefix: string) => string;
  /** Whether a block tag's prefix is the dialect's, when it differs from its invokes' (MiniMax M2's `minimax:`). */
  isBlockPrefix?: (prefix: string) => boolean;
}

/** Anthropic-style markup written as text: no prefix, or an XML namespace prefix (`<ns:invoke …>`). */
const INVOKE_XML: InvokeDialect = {
  shape: 'invoke-xml',
  label: '<invoke>',
  blocks: ['function_calls'],
  isPrefix: (p) => p === '' || (p.endsWith(':') && /^[A-Za-z][\w-]{0,15}:$/.test(p)),
  maxPrefix: 17,
  typedByAttribute: false,
};

/** A tool name as MCP servers and renderers spell them (dots, dashes and colons included). */
const NAME = /^[\p{L}_][\p{L}\p{N}_.:-]*$/u;
/** Tag prefixes read per reply: each spelling costs its own close-tag searches, so a flood of made-up ones is cut. */
const MAX_PREFIXES = 4;

/**
 * Anthropic-style tool calls written as text: `<function_calls><invoke name="t"><parameter name="p">v</parameter>
 * </invoke></function_calls>`, several invokes per block, also with the XML namespace prefix such replies sometimes
 * carry on every tag, and an `<invoke name="…">` written without its block (replies whose block opener was lost).
 * Parameter values are text converted by the tool's schema (textValue). A `<function_calls>` block with no invoke in
 * it is left alone (OLMo 3 writes python calls in the same tag). No renderer asks for this shape: parseable fails it,
 * correct-arguments and no-call judge it.
 */
export function findInvokeXmlCalls(text: string, ctx: FinderContext): Found {
  return findInvokeMarkup(text, ctx, INVOKE_XML);
}

interface OpenTag {
  /** Where `<` is. */
  start: number;
  prefix: string;
  /** Just past the tag name. */
  nameEnd: number;
}

/**
 * Invoke markup of one dialect (invoke-xml here, DeepSeek V3.2's DSML in deepseek.ts): blocks holding invokes, and
 * invokes without a block. A block's region runs from its open tag to its close tag (or, unclosed, to its last
 * invoke); an invoke's from `<invoke` to `</invoke>`. A missing `</invoke>` (the reply cut off, or the next invoke
 * began) flags the call truncated; an unclosed parameter runs to the next parameter or the invoke's end. An invoke
 * without a usable `name` is a `wrong-shape` attempt. Linear: TokenCursor and TagBodies only.
 */
export function findInvokeMarkup(text: string, ctx: FinderContext, d: InvokeDialect): Found {
  const found = emptyFound();
  const element = d.invoke ?? 'invoke';
  const keyword = `${element} name=`;
  if (!text.includes(keyword)) return found;
  const reader = new InvokeReader(text, ctx, d, found);
  // keyword 0 is the invoke's, then one per block name
  const keywords = new TokenCursor(text, [keyword, ...d.blocks.map((b) => `${b}>`)]);
  const nextInvoke = (from: number) => keywords.next(0, from);
  let from = 0;
  let candidates = 0;
  for (;;) {
    const invoke = reader.openAt(nextInvoke, from, element);
    let block: { tag: OpenTag; name: string } | undefined;
    for (const [i, name] of d.blocks.entries()) {
      const tag = reader.openAt((at) => keywords.next(i + 1, at), from, name);
      if (tag && (!block || tag.start < block.tag.start)) block = { tag, name };
    }
    const first = block && (!invoke || block.tag.start < invoke.start) ? block.tag : invoke;
    if (!first || atReadLimit(found, d.label, first.start, text.length, ++candidates)) break;
    if (block && first === block.tag) {
      from = reader.block(block.tag, block.name, nextInvoke);
      continue;
    }
    if (d.blockOnly) {
      from = first.nameEnd;
      continue;
    }
    const at = reader.invoke(first, text.length, false);
    if (at.prose) {
      from = first.nameEnd;
      continue;
    }
    found.spans.push([first.start, at.end]);
    from = Math.max(at.end, first.nameEnd);
  }
  return found;
}

class InvokeReader implements InvokeReading {
  private readonly bodies = new Map<string, TagBodies>();
  private readonly searches = new Map<string, TokenCursor>();
  private readonly answers = new Map<string, { from: number; tag: OpenTag | undefined }>();
  private readonly prefixes = new Set<string>();

  constructor(
    readonly text: string,
    readonly ctx: FinderContext,
    readonly d: InvokeDialect,
    private readonly found: Found,
  ) {}

  /**
   * The next open tag of `name` at or after `from` whose prefix is the dialect's (found by its keyword). The last
   * answer per name is kept: a later question from no further than that tag has the same answer, so keywords that are
   * not tags (a block's text is looked at again from its body) are not tried again.
   */
  openAt(next: (from: number) => number, from: number, name: string): OpenTag | undefined {
    const last = this.answers.get(name);
    if (last && last.from <= from && (last.tag === undefined || from <= last.tag.start)) return last.tag;
    let tag: OpenTag | undefined;
    for (let k = next(from); k >= 0; k = next(k + 1)) {
      const t = this.openTagBefore(k, name);
      if (t && t.start >= from) {
        tag = t;
        break;
      }
    }
    this.answers.set(name, { from, tag });
    return tag;
  }

  private openTagBefore(keyword: number, name: string): OpenTag | undefined {
    const { text, d } = this;
    let lt = keyword - 1;
    const stop = Math.max(0, keyword - d.maxPrefix - 1);
    while (lt >= stop && text.charCodeAt(lt) !== 60) lt--;
    if (lt < stop) return undefined;
    const prefix = lt === keyword - 1 ? '' : text.slice(lt + 1, keyword);
    const block = d.isBlockPrefix !== undefined && d.blocks.includes(name);
    if (!(block ? d.isBlockPrefix?.(prefix) : d.isPrefix(prefix))) return undefined;
    if (!this.prefixes.has(prefix)) {
      if (this.prefixes.size >= MAX_PREFIXES) return undefined;
      this.prefixes.add(prefix);
    }
    return { start: lt, prefix, nameEnd: keyword + name.length };
  }

  /** Where `needle` next occurs at or after `from` (one cursor per needle, so each stays linear). */
  search(needle: string, from: number): number {
    let cursor = this.searches.get(needle);
    if (!cursor) {
      cursor = new TokenCursor(this.text, [needle]);
      this.searches.set(needle, cursor);
    }
    return cursor.next(0, from);
  }

  tagBodies(open: string, close: string): TagBodies {
    const key = `${open}\u0000${close}`;
    let b = this.bodies.get(key);
    if (!b) {
      b = new TagBodies(this.text, open, close);
      this.bodies.set(key, b);
    }
    return b;
  }

  /** A block of invokes; returns where the walk goes on. A block with no invoke of this dialect is not claimed. */
  block(tag: OpenTag, name: string, nextInvoke: (from: number) => number): number {
    const { text, found, d } = this;
    const bodyStart = tag.nameEnd + 1;
    const close = `</${tag.prefix}${name}>`;
    const { bodyEnd, closed } = this.tagBodies(`<${tag.prefix}${name}>`, close).from(bodyStart);
    const element = d.invoke ?? 'invoke';
    const prefix = d.innerPrefix ? d.innerPrefix(tag.prefix) : tag.prefix;
    let invoke = this.openAt(nextInvoke, bodyStart, element);
    if (!invoke || invoke.start >= bodyEnd || invoke.prefix !== prefix) return bodyStart;
    if (isIntroducedAsExample(text, tag.start)) {
      const end = closed ? bodyEnd + close.length : bodyEnd;
      found.spans.push([tag.start, end]);
      found.diagnostics.push({
        code: 'quoted-example',
        message: `a ${d.label} block shown as an example`,
        span: [tag.start, end],
      });
      return end;
    }
    let last = bodyStart;
    let candidates = 0;
    while (invoke && invoke.start < bodyEnd && invoke.prefix === prefix) {
      if (candidates++ > 0 && atReadLimit(found, d.label, invoke.start, text.length, 1)) {
        found.spans.push([tag.start, invoke.start]);
        return text.length;
      }
      const at = this.invoke(invoke, bodyEnd);
      last = at.end;
      invoke = this.openAt(nextInvoke, Math.max(at.end, invoke.nameEnd), element);
    }
    // an unclosed block ends with its last invoke: prose after it is not swallowed
    const end = closed ? bodyEnd + close.length : last;
    found.spans.push([tag.start, end]);
    return end;
  }

  /**
   * One invoke, read no further than `limit`; pushes its call or diagnostic, returns where it ends. Outside a block, an
   * invoke tag whose name attribute is not written as one (`<invoke name=…>` in a sentence) is prose (`prose`).
   */
  invoke(tag: OpenTag, limit: number, inBlock = true): { end: number; prose?: boolean } {
    const { text, found, d } = this;
    const head = openTagEnd(text, tag.nameEnd, limit);
    const attrs = attributes(text.slice(tag.nameEnd, head.end));
    if (!inBlock && !attrs.has('name')) return { end: tag.nameEnd, prose: true };
    const name = (attrs.get('name') ?? '').trim();
    const element = d.invoke ?? 'invoke';
    const close = `</${tag.prefix}${element}>`;
    if (!head.closed && head.end < limit) {
      // `<invoke name="…"` and no `>` for a long way: announced, but not a tag
      found.diagnostics.push({
        code: 'wrong-shape',
        message: `${d.label}: an invoke open tag that never ends`,
        span: [tag.start, head.end],
      });
      return { end: head.end };
    }
    const bodyStart = head.closed ? head.end + 1 : head.end;
    const body = head.closed
      ? this.tagBodies(`<${tag.prefix}${element} name=`, close).from(bodyStart)
      : { bodyEnd: head.end, closed: false };
    const bodyEnd = Math.min(body.bodyEnd, limit);
    const closed = body.closed && body.bodyEnd < limit;
    const end = closed ? bodyEnd + close.length : bodyEnd;
    const span: [number, number] = [tag.start, end];
    if (isIntroducedAsExample(text, tag.start)) {
      found.diagnostics.push({ code: 'quoted-example', message: `a ${d.label} call shown as an example`, span });
      return { end };
    }
    if (!NAME.test(name)) {
      found.diagnostics.push({
        code: 'wrong-shape',
        message: `${d.label}: an invoke without a tool name in its name attribute`,
        span,
      });
      return { end };
    }
    const args = readInvokeArguments(this, tag.prefix, name, bodyStart, bodyEnd);
    if ('error' in args) {
      found.diagnostics.push({
        code: 'unparseable-arguments',
        message: `arguments of ${d.label} ${name} do not parse: ${args.error}`,
        span,
      });
      return { end };
    }
    const call: FoundCall = {
      name,
      args: args.value,
      rawArgs: this.ctx.source.slice(bodyStart, bodyEnd).trim(),
      shape: d.shape,
      repaired: args.repaired,
      truncated: !closed,
      doubleEncoded: false,
      span,
    };
    found.calls.push(call);
    return { end };
  }
}
