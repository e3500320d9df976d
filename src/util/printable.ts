/**
 * Text that came from a suite, a server or a model, made safe for a terminal line: C0 and C1 control characters
 * (escape sequences, carriage returns, newlines) are written as `\uXXXX`, so they cannot move the cursor, recolour the
 * terminal or forge another line.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
