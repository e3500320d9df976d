import { ToolgaugeError } from '../errors.js';

/** Parses JSON Lines text (BFCL's `.json` files are JSON Lines); a bad line is a one-line error naming it. */
export function parseJsonLines(text: string, file: string): unknown[] {
  const out: unknown[] = [];
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line));
    } catch (e) {
      throw new ToolgaugeError(
        'USAGE',
        `${file}:${i + 1}: not a JSON object (${e instanceof Error ? e.message : String(e)}); BFCL files hold one JSON object per line`,
      );
    }
  }
  return out;
}
