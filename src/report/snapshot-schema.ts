import { z } from 'zod';

/** Most trials one case may have in a snapshot (repeats are at most 1000; the comparison packs counts under this). */
export const MAX_TRIALS_PER_CASE = 8191;

/** [passes, graded trials]: whole numbers, passes at most the trials. */
const TallySchema = z
  .tuple([z.number().int().min(0), z.number().int().min(0).max(MAX_TRIALS_PER_CASE)])
  .refine(([pass, n]) => pass <= n, { message: 'passes exceed trials' });

const CellSchema = z.object({
  renderer: z.string(),
  provider: z.string(),
  simulated: z.boolean(),
  cases: z.number().int().min(0),
  errors: z.number().int().min(0),
  graders: z.record(z.string(), z.tuple([z.number().int().min(0), z.number().int().min(0)])),
});

/**
 * The shape of reports/baseline.json (and of run.json's `snapshot`) as compare and the gate read it: RunSnapshot in
 * snapshot.ts, checked field by field so that a hand-edited or truncated baseline is one clear error, not a wrong
 * comparison.
 */
export const SnapshotSchema = z.object({
  format: z.string(),
  runId: z.string(),
  configHash: z.string(),
  gitCommit: z.string().nullable(),
  repeats: z.number().int().min(1),
  cells: z.record(z.string(), CellSchema),
  cases: z.record(z.string(), z.record(z.string(), TallySchema)),
});

/** The first problem zod found, as `path: message` (path in JSON-pointer-like dots and brackets). */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${JSON.stringify(String(p))}`)).join('');
  return `${path.replace(/^\./, '') || '(top level)'}: ${issue.message}`;
}
