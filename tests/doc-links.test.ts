import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cli-helpers.js';

/** The documents a fresh clone is read from. */
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/**
 * The local files a Markdown document refers to, as written: inline and reference link targets, and code spans
 * that are paths leading out of the document's folder (`./x`, `../x`). Fenced code blocks are commands, not
 * references; URLs and in-page anchors are not files.
 */
function localReferences(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  const targets = [
    ...[...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
    ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!),
    ...[...prose.matchAll(/`(\.\.?\/[^`\s]+)`/g)].map((m) => m[1]!),
  ];
  return targets
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#'))
    .map((t) => decodeURI(t.replace(/[#?].*$/, '')));
}

describe('links in README.md and docs/*.md', () => {
  it.each(DOCS)('%s refers only to files inside the repository', (doc) => {
    const broken = localReferences(readFileSync(join(ROOT, doc), 'utf8')).filter((target) => {
      const file = resolve(dirname(join(ROOT, doc)), target);
      const inside = !relative(ROOT, file).startsWith('..');
      return !inside || !existsSync(file);
    });
    expect(broken).toEqual([]);
  });
});
