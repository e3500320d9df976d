import randexpModule from 'randexp';

// randexp is CommonJS (`module.exports = RandExp`) typed as an ES default export: take the class either way.
const RandExp = ((randexpModule as unknown as { default?: unknown }).default ??
  randexpModule) as typeof randexpModule.default;

type Schema = Record<string, unknown>;

/** What the generator knows about the tool a parameter belongs to, for values a server is likely to accept. */
export interface ToolHints {
  /** The tool's name (`list_directory`, `move_file`). */
  tool: string;
  /** Its annotations say it changes state (it may create what it is given). */
  changesState: boolean;
  /**
   * Examples other tools of the catalog give for a parameter of the same name ("Name of the worksheet (e.g.
   * \"Sheet1\")"), for a parameter whose own description gives none: a catalog's tools share their data.
   */
  catalogExamples?: ReadonlyMap<string, string>;
}

/** The example a description gives (`e.g. "test.xlsx"`), if any. */
export function describedExample(description: unknown): string | undefined {
  if (typeof description !== 'string') return undefined;
  return /e\.g\.,?\s*["'`]([^"'`\n]{1,80})["'`]/.exec(description)?.[1];
}

/** A value of each format ajv-formats checks, that a reader recognises as an example. */
const FORMAT_EXAMPLES: Record<string, string> = {
  uri: 'https://example.com',
  url: 'https://example.com',
  'uri-reference': 'https://example.com',
  iri: 'https://example.com',
  'iri-reference': 'https://example.com',
  'uri-template': 'https://example.com/{id}',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  date: '2024-01-31',
  time: '12:00:00Z',
  'date-time': '2024-01-31T12:00:00Z',
  duration: 'P1D',
  uuid: '00000000-0000-4000-8000-000000000000',
  'json-pointer': '/example',
  'relative-json-pointer': '0',
  regex: '^example$',
  byte: 'ZXhhbXBsZQ==',
  int32: '1',
  int64: '1',
  float: '1.5',
  double: '1.5',
  password: 'example-password',
};

/** A tool that works on folders: its path parameter names a folder. */
const FOLDER_TOOL = /dir|folder|tree|search|find|glob|(^|[_-])(list|ls)([_-]|$)/i;
/** A tool that makes something new: a name another tool gives as an example is one that exists already. */
const CREATE_TOOL = /create|(^|[_-])(new|add|make|insert)([_-]|$)/i;
/** A tool that moves or copies something from a source to a destination. */
const MOVE_TOOL = /move|copy|rename/i;
/** A parameter that names a place rather than a file: `path`, `dir`, `folder`, `directory` (not `file_path`). */
const PLACE_PARAM = /^(path|root|dir|dirname|dir_?path|directory|directory_?path|folder|folder_?path)$/i;

/**
 * Readable candidates for a string parameter, best first: its format's example, the example its description gives
 * ("e.g. \"test.xlsx\"") or another tool's gives for its name, one guessed from its name and its tool (a folder for a
 * folder tool's path: `.` when the tool only reads, a new folder when it may create it), then `example <name>`.
 */
function readableCandidates(s: Schema, name: string, hints: ToolHints | undefined): string[] {
  const out: string[] = [];
  const format = typeof s.format === 'string' ? FORMAT_EXAMPLES[s.format] : undefined;
  if (format) out.push(format);
  // (another tool's example names something that exists: not for a tool that creates one)
  const shared = hints && !CREATE_TOOL.test(hints.tool) ? hints.catalogExamples?.get(name) : undefined;
  const given = describedExample(s.description) ?? shared;
  if (given) out.push(given);
  const n = name.toLowerCase();
  const tool = hints?.tool ?? '';
  if (PLACE_PARAM.test(n) && FOLDER_TOOL.test(tool)) out.push(hints?.changesState ? 'example-dir' : '.');
  if (MOVE_TOOL.test(tool) && /^(source|src|from)(_?path)?$/.test(n)) out.push('example.txt');
  if (MOVE_TOOL.test(tool) && /^(destination|dest|target|to)(_?path)?$/.test(n)) out.push('example-moved.txt');
  if (/url|uri|link/.test(n)) out.push('https://example.com');
  if (/(^|_)(file)?path$|file(name|_name)?$|filepath/.test(n)) out.push('example.txt');
  if (/dir|folder/.test(n)) out.push('example-dir');
  if (/email/.test(n)) out.push('user@example.com');
  if (/date/.test(n)) out.push('2024-01-31');
  if (/(^|_)cell$/.test(n)) out.push('A1');
  out.push(`example ${name || 'text'}`);
  return out;
}

/** `pattern` as the schema means it (ECMA-262 with the unicode flag, as ajv compiles it); undefined if it does not compile. */
function patternOf(s: Schema): RegExp | undefined {
  if (typeof s.pattern !== 'string') return undefined;
  try {
    return new RegExp(s.pattern, 'u');
  } catch {
    return undefined;
  }
}

/**
 * A string the pattern matches, by randexp (writing a generator of strings from regular expressions by hand is a
 * project of its own). Deterministic: every choice takes its lowest option (the shortest repetition, the first
 * character of a class), and characters come from printable ASCII.
 */
function fromPattern(pattern: string): string | undefined {
  try {
    const gen = new RandExp(pattern);
    gen.max = 8;
    gen.randInt = (a: number) => a;
    gen.defaultRange.subtract(0, 0x1f);
    gen.defaultRange.subtract(0x7f, 0x10ffff);
    return gen.gen();
  } catch {
    return undefined;
  }
}

/** Fits a candidate into minLength/maxLength (counted in code points, as JSON Schema counts). */
function fitLength(text: string, s: Schema): string {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Number.POSITIVE_INFINITY;
  let chars = [...text];
  if (chars.length > max) chars = chars.slice(0, Math.max(0, max));
  while (chars.length < min) chars.push('x');
  return chars.join('');
}

/**
 * Strings that satisfy the schema's string keywords (format, pattern, minLength, maxLength), readable ones first; the
 * caller tries them in order against the whole schema. A string never comes out empty unless the schema forces it
 * (an empty allowed value means "may be omitted" in a suite).
 */
export function exampleStrings(s: Schema, name: string, hints?: ToolHints): string[] {
  const re = patternOf(s);
  const fits = (t: string) => t.length > 0 && (!re || re.test(t));
  const found: string[] = [];
  for (const c of readableCandidates(s, name, hints)) {
    const t = fitLength(c, s);
    if (fits(t) && !found.includes(t)) found.push(t);
  }
  if (re && typeof s.pattern === 'string') {
    const generated = fromPattern(s.pattern);
    if (generated !== undefined) {
      const t = fitLength(generated, s);
      if (fits(t) && !found.includes(t)) found.push(t);
    }
  }
  return found.length > 0 ? found : [fitLength(`example ${name || 'text'}`, s)];
}
