/**
 * How a model names a parameter it was never shown. Hand-written table of the confusions seen in the case
 * studies and in BFCL failures (filepath vs file_path vs path, sheet_name vs sheet, start_cell vs range),
 * plus generic spelling shifts (snake ↔ camel, first/last word, underscores dropped).
 */
const SYNONYMS: Record<string, string[]> = {
  filepath: ['file_path', 'path', 'file', 'filename'],
  file_path: ['filepath', 'path', 'file'],
  path: ['file_path', 'filepath', 'file'],
  filename: ['file_name', 'file', 'path'],
  sheet_name: ['sheet', 'sheetName', 'worksheet'],
  start_cell: ['start', 'range', 'cell', 'startCell'],
  end_cell: ['end', 'endCell', 'range'],
  cell_range: ['range', 'cells'],
  data: ['values', 'rows', 'content'],
  formula: ['expression', 'value'],
  query: ['q', 'search', 'text'],
  content: ['text', 'data', 'body'],
  command: ['cmd', 'shell_command'],
  location: ['city', 'place'],
  unit: ['units'],
};

function snakeToCamel(s: string): string {
  return s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function camelToSnake(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** Plausible wrong names for `param`, most likely first; never `param` itself. */
export function wrongNames(param: string): string[] {
  const words = camelToSnake(param).split('_').filter(Boolean);
  const generic = [snakeToCamel(param), camelToSnake(param), words[0] ?? '', words.at(-1) ?? '', words.join('')];
  const synonyms = SYNONYMS[param] ?? [];
  // A one-word name with no known synonym still gets a plausible wrong spelling.
  if (words.length === 1 && synonyms.length === 0) generic.push(`${param}_value`, `${param}s`);
  const all = [...synonyms, ...generic];
  return [...new Set(all)].filter((n) => n && n !== param);
}

/** Chance that a guess happens to be right: one-word names are easier to guess than compound ones. */
export function luckFor(param: string): number {
  return /[_A-Z]/.test(param) ? 0.3 : 0.5;
}

/** A guess for `param`: right by luck with probability `luckFor(param)`, else one of its wrong names. */
export function guessName(param: string, random: () => number): string {
  if (random() < luckFor(param)) return param;
  const wrong = wrongNames(param);
  return wrong[Math.floor(random() * wrong.length)] ?? param;
}
