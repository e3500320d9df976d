#!/usr/bin/env node
import { redactText } from '../util/redact.js';
import { boundHeapGrowth } from './heap-growth.js';
import { watchOutputStreams } from './output-streams.js';
import { errorLines, guardTerminal } from './terminal-guard.js';

// Output whose reader has gone is dropped; any other write error of stdout or stderr ends in exit code 3 (see there).
watchOutputStreams();

// Text from models, servers and suites is printed by many commands; none of it may act on the terminal (retitle it,
// erase or overwrite a line): every write to stdout and stderr has its control characters made visible.
guardTerminal();

// A promise rejected with nobody to handle it is a bug of ours, not a gate verdict: Node's default ends the process
// with exit code 1, which CI would read as "gate failed". It ends as an internal error (exit 3) with one line.
process.on('unhandledRejection', (reason) => endWith('unhandled rejection', reason));

// Likewise an exception thrown from a callback (a timer, an event handler) that nothing caught: one line, exit 3,
// never Node's stack trace and exit code 1.
process.on('uncaughtException', (error: unknown) => endWith('uncaught exception', error));

/**
 * The last words of a process that failed where nothing caught it. Never throws: a handler that threw would make Node
 * print that second error itself, past the printing boundary (raw escape sequences from a plugin's hostile value)
 * and exit 7. Reading the value (a getter, a toString a plugin wrote) may throw: then it is not quoted.
 */
function endWith(what: string, value: unknown): never {
  try {
    process.stderr.write(`toolgauge: internal error (${what}): ${errorLines(redactText(textOf(value, 'message')))}\n`);
    if (process.argv.includes('--verbose')) {
      const stack = textOf(value, 'stack');
      if (stack) process.stderr.write(`${errorLines(redactText(stack))}\n`);
    }
  } catch {
    // stderr itself failed: nothing more can be said
  }
  process.exit(3);
}

/** An error's message or stack, or any other value as text; what cannot be read is described, never thrown. */
function textOf(value: unknown, part: 'message' | 'stack'): string {
  try {
    if (value instanceof Error) {
      const text: unknown = value[part];
      return typeof text === 'string' ? text : part === 'message' ? String(text) : '';
    }
    return part === 'message' ? String(value) : '';
  } catch {
    return part === 'message' ? 'a value that cannot be shown (reading it threw)' : '';
  }
}

// An eval's memory is meant to stay flat in the number of cases; keep V8 from letting garbage pile up far past it.
boundHeapGrowth();

const { main } = await import('./program.js');
await main(process.argv);
