import type { Found } from './found-call.js';

/** A text with every occurrence of one token taken out, and the way back to the positions of the text as written. */
export interface Stripped {
  /** The searched (masked) text without the token. */
  text: string;
  /** The reply as written, without the token at the same places. */
  source: string;
  /** The position in the original text of a position in the stripped one (a token right before it stays before). */
  toOriginal(i: number): number;
}

/**
 * Takes `token` out of `text` (and of `source` at the same places), for a format that writes a token before every tag
 * (MiniMax M3's namespace token): the finders for the tags then read the stripped text, and their spans are mapped back
 * with `toOriginal` (mapFound). Linear: one indexOf walk, a binary search per mapped position.
 */
export function stripToken(text: string, source: string, token: string): Stripped {
  const at: number[] = [];
  for (let i = text.indexOf(token); i >= 0; i = text.indexOf(token, i + token.length)) at.push(i);
  let t = '';
  let s = '';
  let from = 0;
  for (const i of at) {
    t += text.slice(from, i);
    s += source.slice(from, i);
    from = i + token.length;
  }
  t += text.slice(from);
  s += source.slice(from);
  // where each token stood in the stripped text
  const stripped = at.map((i, k) => i - k * token.length);
  return {
    text: t,
    source: s,
    toOriginal(i) {
      // the tokens that stood before position i (one standing at i is after the character before it)
      let lo = 0;
      let hi = stripped.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((stripped[mid] as number) < i) lo = mid + 1;
        else hi = mid;
      }
      return i + lo * token.length;
    },
  };
}

/** Maps every span of `found` (calls, diagnostics, claimed regions) back to the original text. */
export function mapFound(found: Found, s: Stripped): Found {
  const map = (span: [number, number]): [number, number] => [s.toOriginal(span[0]), s.toOriginal(span[1])];
  for (const c of found.calls) c.span = map(c.span);
  for (const d of found.diagnostics) if (d.span) d.span = map(d.span);
  found.spans = found.spans.map(map);
  return found;
}
