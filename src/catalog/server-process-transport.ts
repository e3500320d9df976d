import { type ChildProcess, spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { ReadBuffer, STDIO_DEFAULT_MAX_BUFFER_SIZE, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { forgetGroup, watchGroup } from './server-reaper.js';

/** Largest message (one JSON-RPC line) read from a stdio server: the SDK's own limit, 10 MiB. */
export const MAX_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/** Process groups exist on POSIX: there a server and everything it spawned are ended together. */
const GROUPS = process.platform !== 'win32';
const GRACE_MS = 2000;

/** Every stdio server process started and not yet seen to exit; all are killed when this process exits. */
const liveServers = new Set<ChildProcess>();
let exitHook = false;

/** Signals a server's whole process group (its children too), or the process alone where there are no groups. */
function signalServer(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(GROUPS ? -child.pid : child.pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Kills (SIGKILL) every stdio server process still running, with its process group. Runs on this process's exit,
 * whatever the way out (a second Ctrl-C, an error, the end of a command): no server outlives the CLI.
 */
function killServerProcesses(): void {
  for (const child of liveServers) signalServer(child, 'SIGKILL');
  liveServers.clear();
}

/** Signals whose default action ends this process without an 'exit' event. */
const FATAL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Once a server runs: kill them all on exit, and on a fatal signal nobody else handles. A server leads its own process
 * group, so a terminal's Ctrl-C no longer reaches it: a CLI that dies of the signal (before a command installs its
 * interrupt handling) must take its servers along. When another handler exists (a run stopping gracefully), it owns
 * the signal and the exit hook does the rest.
 */
function installExitHooks(): void {
  if (exitHook) return;
  exitHook = true;
  process.once('exit', killServerProcesses);
  for (const signal of FATAL_SIGNALS) {
    const onSignal = () => {
      if (process.listenerCount(signal) > 1) return;
      killServerProcesses();
      process.off(signal, onSignal);
      process.kill(process.pid, signal); // the default action, as if nobody had listened
    };
    process.on(signal, onSignal);
  }
}

/** Signals that ask a process to end (a terminal's Ctrl-C, hang-up or quit; a kill): not a crash of the server. */
const ENDING_SIGNALS: ReadonlySet<string> = new Set(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']);

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/**
 * The client side of a stdio server: like the SDK's StdioClientTransport, but the server leads its own process group
 * (so a server that spawns children is ended with them, and a terminal's Ctrl-C reaches the CLI alone), every server is
 * killed when this process exits, and a message over the read limit is known as such (`overLimit`) instead of
 * surfacing as a bare "Connection closed".
 */
export class ServerProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr, available before start so no early line is lost. */
  readonly stderr = new PassThrough();
  /** The server sent a message over MAX_MESSAGE_BYTES: it was dropped and the connection closed. */
  overLimit = false;
  /**
   * The signal that ended the server when toolgauge did not send it: a terminal's Ctrl-C that reached it while it was
   * being started (a new process joins its own group only once forked), a `kill` from outside.
   */
  endedBy: NodeJS.Signals | undefined;
  private child: ChildProcess | undefined;
  private closing: Promise<void> | undefined;
  private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
  private notified = false;

  constructor(private readonly params: { command: string; args: string[]; env: Record<string, string>; cwd: string }) {}

  start(): Promise<void> {
    if (this.child) throw new Error('server process already started');
    return new Promise((resolve, reject) => {
      const { command, args, env, cwd } = this.params;
      const child = spawn(command, args, {
        env,
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: GROUPS,
        windowsHide: true,
      });
      this.child = child;
      // Known for killing from the moment it exists: spawn returns once the process is forked (its pid set), but the
      // 'spawn' event comes a tick later, and a Ctrl-C in between would end this process with the server left running.
      if (child.pid !== undefined) {
        liveServers.add(child);
        installExitHooks();
        // Should this process die unseen (SIGKILL), the reaper ends the group; the exit hooks cover every other exit.
        if (GROUPS) watchGroup(child.pid);
      }
      child.once('error', (e) => {
        reject(e);
        this.onerror?.(e);
      });
      child.once('spawn', () => resolve());
      // The leader is gone: whatever it left running in its group goes too.
      child.once('exit', (_code, signal) => {
        if (signal && ENDING_SIGNALS.has(signal) && !this.closing) this.endedBy = signal;
        liveServers.delete(child);
        signalServer(child, 'SIGKILL');
        if (GROUPS && child.pid !== undefined) forgetGroup(child.pid);
      });
      child.once('close', () => {
        this.child = undefined;
        this.closed();
      });
      child.stdin?.on('error', (e) => this.onerror?.(e));
      child.stdout?.on('error', (e) => this.onerror?.(e));
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr?.pipe(this.stderr);
    });
  }

  private read(chunk: Buffer): void {
    if (this.overLimit) return; // the rest of the dropped message, until the process is gone
    try {
      this.buffer.append(chunk);
    } catch (e) {
      // The SDK's buffer refuses the message and forgets what it held; the stream is now mid-message, and which
      // request the message answered is unknowable: the session cannot go on.
      this.overLimit = true;
      this.onerror?.(e as Error);
      // Pending requests fail now, not when the process is gone (a server may take the whole grace to exit).
      this.closed();
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (e) {
        this.onerror?.(e as Error); // a line that is not JSON-RPC: skipped (the buffer has moved past it)
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  /** Tells the session once that the connection is over. */
  private closed(): void {
    if (this.notified) return;
    this.notified = true;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed || this.closing) return reject(new Error('Not connected'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends stdin, then SIGTERM, then SIGKILL to the group, each after a grace period; resolves once the server exited. */
  close(): Promise<void> {
    const child = this.child;
    if (!child) return Promise.resolve();
    this.closing ??= (async () => {
      const gone = new Promise<void>((resolve) => {
        if (exited(child)) resolve();
        else child.once('exit', () => resolve());
      });
      const within = (ms: number) =>
        Promise.race([gone.then(() => true), new Promise<boolean>((r) => setTimeout(r, ms, false).unref())]);
      try {
        child.stdin?.end();
      } catch {
        // the pipe is already broken
      }
      if (await within(GRACE_MS)) return;
      signalServer(child, 'SIGTERM');
      if (await within(GRACE_MS)) return;
      signalServer(child, 'SIGKILL');
      await within(GRACE_MS);
    })();
    return this.closing.finally(() => this.buffer.clear());
  }
}
