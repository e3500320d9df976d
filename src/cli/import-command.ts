import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { SuiteSchema } from '../config/suite-schema.js';
import { ToolgaugeError } from '../errors.js';
import { importBfcl } from '../import/bfcl-import.js';
import { parseJsonLines } from '../import/read-jsonl.js';
import { suiteToYaml } from '../import/suite-yaml.js';
import { displayPath } from '../util/display-path.js';
import { prepareOutputFile } from '../util/output-folder.js';
import { visibleInline } from '../util/visible-text.js';
import { writeFileWhole } from '../util/write-file.js';

export interface ImportFlags {
  answers?: string;
  out: string;
  name?: string;
}

/**
 * `toolgauge import bfcl <questions.json> [--answers <possible_answer.json>] --out F.yaml`. Without --answers, a
 * `possible_answer/<same name>` beside the questions is used when it exists (BFCL's own layout).
 */
export async function importCommand(format: string, questionsPath: string, flags: ImportFlags): Promise<number> {
  if (format !== 'bfcl') throw new ToolgaugeError('USAGE', `import: unknown format '${format}'; valid: bfcl`);
  prepareOutputFile(flags.out, `--out ${flags.out}`);
  const questionsFile = resolve(questionsPath);
  if (!existsSync(questionsFile)) throw new ToolgaugeError('USAGE', `import bfcl: ${questionsPath}: file not found`);
  let answersFile = flags.answers ? resolve(flags.answers) : undefined;
  if (answersFile && !existsSync(answersFile))
    throw new ToolgaugeError('USAGE', `import bfcl: --answers ${flags.answers}: file not found`);
  const sibling = join(dirname(questionsFile), 'possible_answer', basename(questionsFile));
  if (!answersFile && existsSync(sibling)) answersFile = sibling;
  const questions = parseJsonLines(readFileSync(questionsFile, 'utf8'), displayPath(questionsFile));
  const answers = answersFile ? parseJsonLines(readFileSync(answersFile, 'utf8'), displayPath(answersFile)) : undefined;
  const result = importBfcl(questions, answers, {
    questionsFile: displayPath(questionsFile),
    ...(answersFile ? { answersFile: displayPath(answersFile) } : {}),
    ...(flags.name ? { name: flags.name } : {}),
  });
  const checked = SuiteSchema.safeParse(result.suite);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new ToolgaugeError(
      'USAGE',
      `import bfcl: ${questionsPath}: the converted suite is invalid at ${issue?.path.join('.')}: ${issue?.message}`,
    );
  }
  const header = [
    `Imported by \`toolgauge import bfcl\` from ${basename(questionsFile)}${answersFile ? ` + possible_answer/${basename(answersFile)}` : ''}.`,
    'Source: BFCL (github.com/ShishirPatil/gorilla, berkeley-function-call-leaderboard), Apache-2.0.',
  ];
  const out = resolve(flags.out);
  writeFileWhole(out, suiteToYaml(result.suite, header));
  for (const w of result.warnings) process.stderr.write(`toolgauge: import bfcl: ${visibleInline(w)}\n`);
  process.stderr.write(
    `toolgauge: imported ${result.suite.cases.length} ${result.category} question(s) → ${displayPath(out)}\n`,
  );
  return 0;
}
