#!/usr/bin/env node
import { redactText } from '../../providers/shared/redact.js';
import { boundHeapGrowth } from './heap-growth.js';
import { errorLines, guardTerminal } from './terminal-guard.js';

// A reader that goes away (`toolgauge eval | head -3`, a closed terminal, a CI log that stops reading) makes the
// next write to stdout or stderr fail with EPIPE; unhandled, that error would kill the run half-way with exit code 1
// (the gate's "failed") and no reports. Output is only a view of the run: once its reader is gone, what would have
// been written there is dropped, the run goes on to its end (run log, every report), and the exit code stays the
// command's own (the gate's verdict for eval). Another write error of the streams is no reason to stop either.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

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

// An eval's memory is meant to stay flat in the number of cases; keep V8 from letting garbage pile up far past it.
boundHeapGrowth();

const { main } = await import('./program.js');
await main(process.argv);
