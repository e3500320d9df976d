import { type ChildProcess, spawn } from 'node:child_process';
import { ROOT } from './cli-helpers.js';
import { CLI_WORDS } from './run-cli-anywhere.js';

/** A running `toolgauge serve llm` (the real CLI) and its origin, e.g. http://127.0.0.1:40123. */
export interface ServedLlm {
  url: string;
  stop(): void;
}

/** Starts `toolgauge serve llm --port 0` with the persona given and waits for its banner. */
export function serveLlmProcess(persona = 'oracle'): Promise<ServedLlm> {
  const [node, ...rest] = CLI_WORDS as [string, ...string[]];
  const child: ChildProcess = spawn(node, [...rest, 'serve', 'llm', '--port', '0', '--persona', persona], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on (\S+)/.exec(stderr);
      if (m?.[1] && stderr.includes('recognised by their prompt')) {
        resolve({ url: m[1], stop: () => child.kill('SIGTERM') });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve llm exited (${code}): ${stderr}`)));
  });
}
