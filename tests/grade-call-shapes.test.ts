import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gradeCommand } from '../src/cli/grade-command.js';
import { FIXTURES } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const args = { filepath: 'test.xlsx', sheet_name: 'Sheet1' };
const tagged = `<tool_call>${JSON.stringify({ name: 'read_data_from_excel', arguments: args })}</tool_call>`;

async function summaryOf(lines: object[]): Promise<string> {
  const dir = tempDir('tg-shapes-');
  const outputs = join(dir, 'outputs.jsonl');
  writeFileSync(outputs, lines.map((l) => JSON.stringify(l)).join('\n'));
  const out = join(dir, 'reports');
  expect(await gradeCommand({ suite: join(FIXTURES, 'mini.yaml'), outputs, out, quiet: true })).toBe(0);
  return readFileSync(join(out, readdirSync(out)[0] as string, 'summary.md'), 'utf8');
}

describe('summary.md: how the replies wrote their calls', () => {
  it('counts, per cell, the calls in the protocol asked for and every other shape', async () => {
    const summary = await summaryOf([
      { case: 'read-sheet-zh', output: tagged },
      { case: 'read-sheet-zh', output: `\`\`\`tool_call\n${tagged}\n\`\`\`` },
      {
        case: 'read-sheet-zh',
        output: `Reading it now.\n${JSON.stringify({ name: 'read_data_from_excel', arguments: args })}`,
      },
      { case: 'read-sheet-zh', output: tagged.replace('"Sheet1"}', '"Sheet1"') },
    ]);
    const section = summary.slice(summary.indexOf('## Call shapes'));
    expect(section).toContain('| recorded | recorded | xml-tags |');
    expect(section).toContain('xml-tags 1');
    // the fence's info string is the model's: escaped, it renders as written
    expect(section).toContain('fenced \\`\\`\\`tool_call: xml-tags 1');
    expect(section).toContain('bare-json 1');
    expect(section).toContain('xml-tags, repaired 1');
  });

  it('is left out when every call was in the protocol asked for', async () => {
    const summary = await summaryOf([{ case: 'read-sheet-zh', output: tagged }]);
    expect(summary).not.toContain('## Call shapes');
  });
});
