import { Document, isScalar, visit } from 'yaml';
import type { Suite } from '../contracts/suite.js';

/**
 * A suite as YAML with a comment header (provenance). Lists of plain values (allowed values, `required`,
 * `enum`) are written inline (`[10, ""]`), the way hand-written suites read; long strings are not folded.
 */
export function suiteToYaml(suite: Suite, header: string[] = []): string {
  const doc = new Document(suite, { aliasDuplicateObjects: false });
  visit(doc, {
    Seq(_, node) {
      if (node.items.every((item) => isScalar(item))) node.flow = true;
    },
  });
  const comments = header.map((h) => `# ${h}\n`).join('');
  return `${comments}${doc.toString({ lineWidth: 0 })}`;
}
