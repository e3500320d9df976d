#!/usr/bin/env node
import { sharedTokenCounter } from '../util/token-counter.js';

// A reader that goes away (`toolgauge eval | head -3`, a closed terminal, a CI log that stops reading) makes the
// next write to stdout or stderr fail with EPIPE; unhandled, that error would kill the run half-way with exit code 1
// (the gate's "failed") and no reports. Output is only a view of the run: once its reader is gone, what would have
// been written there is dropped, the run goes on to its end (run log, every report), and the exit code stays the
// command's own (the gate's verdict for eval). Another write error of the streams is no reason to stop either.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

// Commands that run cases count prompt tokens: the tokenizer's tables (~0.3 s of CPU) start loading in a worker
// thread before anything else, in parallel with the command line, the config, the suites and the servers.
const command = process.argv.slice(2).find((a) => !a.startsWith('-'));
if (command === 'eval' || command === 'replay') sharedTokenCounter();

const { main } = await import('./program.js');
await main(process.argv);
