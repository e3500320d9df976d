import type { Expect, ExpectedCall, Suite, SuiteCase } from '../contracts/suite.js';
import { ToolgaugeError } from '../errors.js';
import { bfclToJsonSchema } from './bfcl-schema.js';

/** What `importBfcl` needs besides the parsed lines: file names for error messages, an optional suite name. */
export interface BfclImportOptions {
  questionsFile: string;
  answersFile?: string;
  /** Suite name (default `bfcl-<category>`). */
  name?: string;
}

export interface BfclImport {
  suite: Suite;
  category: string;
  /** Non-fatal notes (unknown BFCL types left unconstrained, …). */
  warnings: string[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `simple_python_12` → `simple_python`; `live_simple_3-2-1` → `live_simple`. */
export function bfclCategory(id: string): string {
  return /^(.*?)_\d+(?:-\d+)*$/.exec(id)?.[1] ?? id;
}

/**
 * How a BFCL category is graded here. BFCL dispatches on the category name: `parallel` → all calls, any order;
 * `multiple` → one call chosen among several functions; `irrelevance` → no call; otherwise exactly one call.
 */
export function bfclMode(category: string): 'no-call' | 'parallel' | 'single' {
  if (category.includes('irrelevance')) return 'no-call';
  if (category.includes('parallel')) return 'parallel';
  return 'single';
}

const UNSUPPORTED = /multi_turn|(?:^|_)relevance$|memory|web_search|format_sensitivity/;

/**
 * Converts BFCL questions (and their possible answers) to a toolgauge suite: each question's functions become the
 * case's inline `functions` (BFCL types → JSON Schema), its possible answer the expected calls (allowed values per
 * parameter, `""` = may be omitted), irrelevance questions `no_call: true`. Pure; inputs are parsed JSON Lines.
 */
export function importBfcl(questions: unknown[], answers: unknown[] | undefined, opts: BfclImportOptions): BfclImport {
  const warnings: string[] = [];
  const unknownTypes = new Set<string>();
  const truth = new Map<string, unknown>();
  for (const [i, a] of (answers ?? []).entries()) {
    if (!isRecord(a) || typeof a.id !== 'string' || !Array.isArray(a.ground_truth)) {
      throw new ToolgaugeError('USAGE', `${opts.answersFile}:${i + 1}: expected {"id", "ground_truth": [...]}`);
    }
    truth.set(a.id, a.ground_truth);
  }
  const categories = new Set<string>();
  const cases: SuiteCase[] = questions.map((q, i) => {
    const where = `${opts.questionsFile}:${i + 1}`;
    if (!isRecord(q) || typeof q.id !== 'string' || !Array.isArray(q.question) || !Array.isArray(q.function)) {
      throw new ToolgaugeError('USAGE', `${where}: expected a BFCL question {"id", "question", "function"}`);
    }
    const category = bfclCategory(q.id);
    categories.add(category);
    if (UNSUPPORTED.test(category)) {
      throw new ToolgaugeError(
        'USAGE',
        `${where}: BFCL category '${category}' is not supported; import single-turn AST categories (simple, multiple, parallel, irrelevance, live_*)`,
      );
    }
    const functions = q.function.map((f, j) => toolOf(f, `${where}: function[${j}]`, unknownTypes));
    const expect = expectOf(q.id, category, truth, where, opts);
    const notes = reconcile(expect.calls ?? [], functions);
    warnings.push(...notes.map((n) => `${q.id}: ${n}`));
    const c: SuiteCase = { id: q.id, ...messagesOf(q.question, where), functions, expect };
    if (notes.some((n) => n.startsWith(UNSATISFIABLE))) c.tags = [UNSATISFIABLE];
    return c;
  });
  if (unknownTypes.size > 0) warnings.push(`unknown BFCL types left unconstrained: ${[...unknownTypes].join(', ')}`);
  const category = categories.size === 1 ? [...categories][0]! : 'mixed';
  const suite: Suite = {
    name: opts.name ?? `bfcl-${category.replaceAll('_', '-')}`,
    description: `Imported from BFCL ${category} (${cases.length} questions; ShishirPatil/gorilla, Apache-2.0)`,
    cases,
  };
  return { suite, category, warnings };
}

/** Tag of cases whose possible answer no call can satisfy (a required parameter with no allowed value). */
export const UNSATISFIABLE = 'bfcl-unsatisfiable';

type InlineFunction = { name: string; description?: string; inputSchema: Record<string, unknown> };

/**
 * Makes the answer and the schema agree where BFCL's data contradicts itself, returning a note per change:
 * for a required parameter, "" (may be omitted) moves to the end of the allowed values, so the first allowed
 * value (what the simulated oracle sends) is a real one; an allowed string missing from the parameter's `enum`
 * is added to it (BFCL never checks enums; its answer is the ground truth); a required parameter with no
 * allowed value at all makes the case unsatisfiable (BFCL's checker fails every reply too).
 */
function reconcile(calls: ExpectedCall[], functions: InlineFunction[]): string[] {
  const notes: string[] = [];
  for (const call of calls) {
    const schema = functions.find((f) => f.name === call.tool)?.inputSchema;
    const props = isRecord(schema?.properties) ? schema.properties : {};
    const required = Array.isArray(schema?.required) ? schema.required : [];
    for (const [param, allowed] of Object.entries(call.args ?? {})) {
      if (required.includes(param) && allowed.length === 0) {
        notes.push(`${UNSATISFIABLE}: required parameter ${call.tool}.${param} has no allowed value`);
      }
      if (required.includes(param) && allowed[0] === '' && allowed.length > 1) {
        call.args![param] = [...allowed.filter((v) => v !== ''), ''];
      }
      const prop = props[param];
      if (isRecord(prop) && typeof prop.type === 'string' && allowed.includes(null)) {
        prop.type = [prop.type, 'null'];
        notes.push(`${call.tool}.${param} made nullable: the answer allows None`);
      }
      const isArray = isRecord(prop) && prop.type === 'array' && isRecord(prop.items);
      const target = isArray ? (prop.items as Record<string, unknown>) : prop;
      const values = isRecord(target) && Array.isArray(target.enum) ? (target.enum as unknown[]) : undefined;
      if (isRecord(target) && values) {
        const candidates = isArray ? allowed.flatMap((v) => (Array.isArray(v) ? v : [])) : allowed;
        const missing = [
          ...new Set(candidates.filter((v) => typeof v === 'string' && v !== '' && !values.includes(v))),
        ];
        if (missing.length > 0) {
          target.enum = [...values, ...missing];
          notes.push(`enum of ${call.tool}.${param} extended with the answer's ${JSON.stringify(missing)}`);
        }
      }
    }
  }
  return notes;
}

function messagesOf(question: unknown[], where: string): { prompt: string; system?: string } {
  if (question.length !== 1 || !Array.isArray(question[0])) {
    throw new ToolgaugeError('USAGE', `${where}: multi-turn questions are not supported (${question.length} turns)`);
  }
  const system: string[] = [];
  const user: string[] = [];
  for (const m of question[0] as unknown[]) {
    if (!isRecord(m) || typeof m.content !== 'string') continue;
    (m.role === 'system' ? system : user).push(m.content);
  }
  if (user.length === 0) throw new ToolgaugeError('USAGE', `${where}: the question has no user message`);
  return system.length > 0 ? { prompt: user.join('\n\n'), system: system.join('\n\n') } : { prompt: user.join('\n\n') };
}

function toolOf(f: unknown, where: string, unknownTypes: Set<string>) {
  if (!isRecord(f) || typeof f.name !== 'string')
    throw new ToolgaugeError('USAGE', `${where}: a function needs a name`);
  const inputSchema = bfclToJsonSchema(f.parameters ?? { type: 'dict', properties: {} }, unknownTypes);
  if (inputSchema.type === undefined) inputSchema.type = 'object';
  return typeof f.description === 'string'
    ? { name: f.name, description: f.description, inputSchema }
    : { name: f.name, inputSchema };
}

function expectOf(
  id: string,
  category: string,
  truth: Map<string, unknown>,
  where: string,
  opts: BfclImportOptions,
): Expect {
  const mode = bfclMode(category);
  if (mode === 'no-call') return { no_call: true };
  const gt = truth.get(id);
  if (!Array.isArray(gt)) {
    const hint = opts.answersFile
      ? `${opts.answersFile} has no answer for it`
      : 'pass --answers <possible_answer.json>';
    throw new ToolgaugeError('USAGE', `${where}: question ${id} needs a possible answer; ${hint}`);
  }
  const calls: ExpectedCall[] = gt.map((entry, j) => {
    const [name, args] = isRecord(entry) ? (Object.entries(entry)[0] ?? []) : [];
    if (typeof name !== 'string' || !isRecord(args)) {
      throw new ToolgaugeError('USAGE', `${opts.answersFile}: ${id} ground_truth[${j}] is not {"function": {...}}`);
    }
    const allowed: Record<string, unknown[]> = {};
    for (const [param, values] of Object.entries(args)) allowed[param] = Array.isArray(values) ? values : [values];
    return { tool: name, args: allowed };
  });
  return mode === 'parallel' ? { calls, order: 'parallel' } : { calls };
}
