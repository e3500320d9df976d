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
process.on('unhandledRejection', (reason) => {
  const message = reason instanceof Error ? reason.message : String(reason);
  process.stderr.write(`toolgauge: internal error (unhandled rejection): ${errorLines(redactText(message))}\n`);
  if (process.argv.includes('--verbose') && reason instanceof Error && reason.stack) {
    process.stderr.write(`${errorLines(redactText(reason.stack))}\n`);
  }
  process.exit(3);
});

// Likewise an exception thrown from a callback (a timer, an event handler) that nothing caught: one line, exit 3,
// never Node's stack trace and exit code 1.
process.on('uncaughtException', (error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`toolgauge: internal error (uncaught exception): ${errorLines(redactText(message))}\n`);
  if (process.argv.includes('--verbose') && error instanceof Error && error.stack) {
    process.stderr.write(`${errorLines(redactText(error.stack))}\n`);
  }
  process.exit(3);
});

// An eval's memory is meant to stay flat in the number of cases; keep V8 from letting garbage pile up far past it.
boundHeapGrowth();

const { main } = await import('./program.js');
await main(process.argv);
