import { relative } from 'node:path';

/** A path as a user reads it: relative to the current folder when it lies inside it, else absolute. */
export function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}
