import { callsFromValue, rawArgsOf } from './call-object.js';
import { atReadLimit, emptyFound, type FinderContext, type Found, isIntroducedAsExample } from './found-call.js';
import { parseJsonText } from './json-args.js';
import { scanBalanced, skipSpace } from './json-scan.js';

/**
 * Bare JSON call objects/arrays outside tags and fences: `{"name": …, "arguments": …}` or an array of them.
 * When the JSON is the whole reply the shape is `json` (the json protocol); inside prose it is `bare-json`. A
 * `{"tool_calls": [...]}` wrapper is `xlam` or `openai-json` wherever it stands (call-object.ts).
 * Objects without both a tool name and arguments are prose data, not calls.
 * Each candidate scan costs up to the rest of the text, so a budget of a few passes over the reply bounds
 * the total work (100k unclosed braces would otherwise be quadratic); past it, scanning stops and says so.
 */
export function findBareJsonCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  // every start (`{"…` or `[{`) needs a `{`: python-call replies without one skip the scan
  if (!text.includes('{')) return found;
  const first = skipSpace(text, 0);
  const last = text.trimEnd().length;
  let budget = 4 * text.length + 10_000;
  let repairTried = false;
  let candidates = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if ((ch !== '{' && ch !== '[') || !looksLikeStart(text, i)) {
      i++;
      continue;
    }
    if (atReadLimit(found, 'JSON', i, text.length, ++candidates)) break;
    if (budget <= 0) {
      found.diagnostics.push({ code: 'other', message: 'bare JSON scan stopped: scan budget exhausted', span: [i, i] });
      break;
    }
    const scan = scanBalanced(text, i);
    budget -= scan.end - i;
    if (!scan.closed && repairTried) {
      i++;
      continue;
    }
    // located in the masked text, read as written (a fence inside a string value was masked as inline code)
    const slice = ctx.source.slice(i, scan.end);
    if (!scan.closed) {
      repairTried = true;
      if (!/"(?:name|tool_name|function)"/.test(slice.slice(0, 2000))) {
        i++;
        continue;
      }
    }
    if (!mayHoldCall(slice)) {
      i = scan.closed ? scan.end : i + 1;
      continue;
    }
    const parsed = parseJsonText(slice);
    const calls = parsed.ok ? callsFromValue(parsed.value, true) : [];
    if (calls.length === 0) {
      i = scan.closed ? scan.end : i + 1;
      continue;
    }
    const span: [number, number] = [i, scan.end];
    found.spans.push(span);
    i = scan.end;
    if (isIntroducedAsExample(text, span[0])) {
      found.diagnostics.push({ code: 'quoted-example', message: 'a JSON call shown as an example', span });
      continue;
    }
    const whole = span[0] === first && scan.end >= last;
    for (const c of calls) {
      if (c.badArgs) {
        found.diagnostics.push({ code: 'unparseable-arguments', message: `arguments of ${c.name} are not JSON`, span });
        continue;
      }
      found.calls.push({
        name: c.name,
        args: c.args,
        rawArgs: calls.length === 1 ? rawArgsOf(slice) : JSON.stringify(c.args),
        // a `{"tool_calls": [...]}` wrapper keeps its own shape, whole reply or not: it is not the json protocol's call
        shape: c.shape ?? (whole ? 'json' : 'bare-json'),
        repaired: (parsed.ok && parsed.repaired) || c.repaired,
        truncated: !scan.closed,
        doubleEncoded: (parsed.ok && parsed.doubleEncoded) || c.doubleEncoded,
        span,
        ...(c.id !== undefined ? { id: c.id } : {}),
      });
    }
  }
  return found;
}

/**
 * A bare call object needs a `name`, `tool_name` or `function` key and an `arguments`, `parameters` or `args` key
 * (call-object.ts, `requireArgs`): text without both kinds of word (or a backslash that could escape them) cannot
 * hold one, so it is not parsed. Python dicts in call arguments (`{'a': 1}`, `{'name': 'John'}`) would otherwise
 * each cost a failed JSON.parse and a jsonrepair.
 */
function mayHoldCall(slice: string): boolean {
  if (slice.includes('\\')) return true;
  return (
    (slice.includes('name') || slice.includes('function')) && (slice.includes('arg') || slice.includes('parameters'))
  );
}

/** `{` followed by a quoted key, or `[` followed by `{`: the only starts a call object can have. */
function looksLikeStart(text: string, i: number): boolean {
  // (within 200 characters: a masked region after a brace is spaces, and each brace would otherwise scan it)
  const j = skipSpace(text, i + 1, Math.min(text.length, i + 201));
  const next = text[j];
  return text[i] === '{' ? next === '"' || next === "'" : next === '{';
}
