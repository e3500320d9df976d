import { parse } from '../api/parse.js';
import { formatParseDocument, PLAIN, paintFor } from './parse-output.js';
import { rawWrite } from './terminal-guard.js';

/** The options of `toolgauge parse`, as commander passes them (checked by parse()). */
export interface ParseFlags {
  /** Suite file or bundled suite name: its case's tools are the offered tools. */
  suite?: string;
  /** The case of a plain reply (JSONL lines name their own). */
  case?: string;
  /** A JSON file of tool definitions (MCP, tools/list, OpenAI or Anthropic shape). */
  tools?: string;
  /** The protocol the reply was asked for (as `grade --protocol`). */
  protocol?: string;
  /** `text` or `jsonl`: how to read the input instead of telling from its content. */
  format?: string;
  json?: boolean;
}

/**
 * `toolgauge parse [FILE|-] [--suite S --case C | --tools FILE] [--protocol P] [--format text|jsonl] [--json]`:
 * parse(), each document printed as it is made (as text, in colour on a terminal, or as JSON). Exit 0 for any valid
 * input (a reply with no call is a result); bad input is a usage error (exit 2).
 */
export async function parseCommand(file: string | undefined, flags: ParseFlags): Promise<number> {
  const { json, ...options } = flags;
  const parsed = await parse(file, options);
  const paint = paintFor(process.stdout);
  const colour = paint !== PLAIN;
  let i = 0;
  for await (const doc of parsed.documents) {
    if (json) process.stdout.write(`${JSON.stringify(doc, null, parsed.format === 'text' ? 2 : undefined)}\n`);
    else {
      const text = `${i > 0 ? '\n' : ''}${formatParseDocument(doc, paint)}`;
      // formatParseDocument escapes every part that comes from the input: in colour, only its colours pass the guard
      if (colour) rawWrite(process.stdout, text);
      else process.stdout.write(text);
    }
    i++;
  }
  return 0;
}
