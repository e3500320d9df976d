/* BFCL's prompt-mode replies, written as the tests need them. */

/** A JSON value as a Python literal (what BFCL's prompt mode asks models to write). */
export function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`,
  );
  return `{${entries.join(', ')}}`;
}

/** `[f(a=1), g(b="x")]`: BFCL's prompt-mode reply for these calls. */
export function pythonCallList(calls: { tool: string; args: Record<string, unknown> }[]): string {
  const one = (c: { tool: string; args: Record<string, unknown> }) =>
    `${c.tool}(${Object.entries(c.args)
      .map(([k, v]) => `${k}=${pythonLiteral(v)}`)
      .join(', ')})`;
  return `[${calls.map(one).join(', ')}]`;
}
