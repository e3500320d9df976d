import { visible } from '../util/visible-text.js';

type Write = NodeJS.WriteStream['write'];

/** The streams' own write functions, kept for the output toolgauge styles itself (rawWrite). */
const originals = new WeakMap<NodeJS.WriteStream, Write>();

/**
 * The printing boundary of the CLI: from here on, everything written to stdout and stderr has its control characters
 * made visible (`visible`: ESC as `\x1b`, CR as `\r`, NUL as `\x00`, bidirectional overrides as `\u202e`; line feeds
 * and tabs kept). A model reply, a tool result or name, a server's stderr or a provider's error message can then
 * neither retitle the terminal, nor erase or overwrite a line, whichever command prints it and however it got
 * there. Text is checked once per write (one regular-expression test when nothing needs escaping). The few
 * sequences toolgauge writes on purpose (the progress bar's carriage return, `parse`'s colours) go through
 * {@link rawWrite} after their untrusted parts were escaped. Installed once, by the CLI's entry point only: a program
 * using the library keeps its streams as they are.
 */
export function guardTerminal(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (originals.has(stream)) continue;
    const write = stream.write;
    originals.set(stream, write);
    const guarded = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
      const text =
        typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? new TextDecoder().decode(chunk) : chunk;
      return (write as (...a: unknown[]) => boolean).call(
        this,
        typeof text === 'string' ? visible(text) : text,
        ...(typeof chunk === 'string' ? rest : rest.filter((r) => typeof r !== 'string')),
      );
    };
    stream.write = guarded as Write;
  }
}

/**
 * Writes `text` as it is, past the guard: only for text toolgauge composed itself with every untrusted part already
 * escaped (`visibleInline`), and holding control sequences on purpose.
 */
export function rawWrite(stream: NodeJS.WriteStream, text: string): boolean {
  const write = originals.get(stream) ?? stream.write;
  return write.call(stream, text);
}

/**
 * A message as the lines of one error: every line after the first is indented by two spaces (as a file's list of
 * problems already is), so no line of an error (a provider's reply body, a server's stderr quoted in it) can stand at
 * the start of a line and pass for toolgauge's own, such as `gate: passed`.
 */
export function errorLines(message: string): string {
  return message.trimEnd().replace(/\r?\n(?! {2})/g, '\n  ');
}
