#!/usr/bin/env node
import { sharedTokenCounter } from '../util/token-counter.js';

// Commands that run cases count prompt tokens: the tokenizer's tables (~0.3 s of CPU) start loading in a worker
// thread before anything else, in parallel with the command line, the config, the suites and the servers.
const command = process.argv.slice(2).find((a) => !a.startsWith('-'));
if (command === 'eval' || command === 'replay') sharedTokenCounter();

const { main } = await import('./program.js');
await main(process.argv);
