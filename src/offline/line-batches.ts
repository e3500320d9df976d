import { createReadStream } from 'node:fs';

/** Line breaks as node:readline sees them with `crlfDelay: Infinity`: CRLF, LF, or a lone CR. */
const BREAK = /\r\n|\n|\r/;

/**
 * The lines of a text file in batches (one batch per chunk read), streamed, so memory stays flat. Splits like
 * node:readline (CRLF, LF and a lone CR end a line; no empty line after a final break), but hands over a whole
 * chunk's lines at once: readline's one promise per line cost more than grading a BFCL line. Unlike readline, a
 * UTF-8 byte order mark at the start of the file is dropped (Windows editors write one; JSON.parse rejects it).
 */
export async function* lineBatches(file: string): AsyncGenerator<string[]> {
  const input = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let rest = '';
  let first = true;
  try {
    for await (const chunk of input as AsyncIterable<string>) {
      let text = rest + chunk;
      if (first) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      let cut = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
      // a CR that ends the chunk may be the first half of a CRLF: decide with the next chunk
      if (cut === text.length - 1 && text.endsWith('\r')) cut = Math.max(text.lastIndexOf('\n', cut - 1), -1);
      if (cut < 0) {
        rest = text;
        continue;
      }
      rest = text.slice(cut + 1);
      const lines = text.slice(0, cut + 1).split(BREAK);
      lines.pop();
      yield lines;
    }
    if (rest !== '') yield rest.split(BREAK).filter((l, i, all) => i < all.length - 1 || l !== '');
  } finally {
    input.destroy();
  }
}
