/** One line of `toolgauge doctor`: what was checked, how it went, and what to do when it did not go well. */
export interface Finding {
  status: 'ok' | 'warn' | 'fail';
  subject: string;
  detail: string;
  fix?: string;
}

const LABEL = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' } as const;

export function formatFinding(f: Finding): string {
  const head = `${LABEL[f.status]}  ${f.subject}: ${f.detail}`;
  return f.fix && f.status !== 'ok' ? `${head}\n      fix: ${f.fix}` : head;
}
