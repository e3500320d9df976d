import { existsSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { ServerSpec } from '../contracts/suite.js';
import { ToolgaugeError } from '../errors.js';

/** What `init` was pointed at: exactly one of these. */
export interface InitServerFlags {
  server?: string;
  url?: string;
  builtin?: string;
  name?: string;
}

/**
 * Splits a command line the way a POSIX shell splits words: spaces separate, single quotes keep everything, double
 * quotes keep everything but `\"` and `\\`, a backslash outside quotes escapes the next character. No expansion.
 */
export function splitCommand(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new ToolgaugeError('USAGE', `--server "${text}": unclosed ${quote} quote`);
  if (inWord) words.push(word);
  return words;
}

const RUNNERS = new Set([
  'node',
  'npx',
  'uvx',
  'uv',
  'python',
  'python3',
  'bun',
  'bunx',
  'deno',
  'pnpm',
  'yarn',
  'tsx',
]);
const GENERIC = new Set(['index', 'main', 'server', 'cli', 'dist', 'build', 'src', 'lib', 'bin', 'run', 'exec', 'dlx']);

/** A short suite and server name (lowercase letters, digits and dashes) from what the server was started with. */
export function guessServerName(flags: InitServerFlags, words: readonly string[]): string {
  if (flags.builtin) return clean(flags.builtin);
  if (flags.url && URL.canParse(flags.url)) {
    // a path segment other than mcp (…/weather/mcp), else a host that is not this machine (mcp.weather.example)
    const url = new URL(flags.url);
    const segment = url.pathname.split('/').find((p) => p && !/^(mcp|sse|v\d+|api)$/i.test(p));
    if (segment) return clean(segment);
    const host = url.hostname.split('.').find((p) => p && !/^(mcp|api|www|localhost|\d+|\[.*\])$/i.test(p));
    return host && !/^(127\.|\[::1\])/.test(url.hostname) ? clean(host) : 'server';
  }
  const serveAt = words.findIndex((w, i) => w === 'serve' && words[i + 1] === 'mcp');
  if (serveAt >= 0 && words[serveAt + 2]) return clean(words[serveAt + 2]!);
  // `env NAME=value … node server.js`: the command starts after the environment it is given
  let start = words[0] === 'env' ? 1 : 0;
  while (start < words.length && /^[A-Za-z_]\w*=/.test(words[start]!)) start++;
  const candidates = words.slice(start).filter((w, i) => !w.startsWith('-') && !(i === 0 && RUNNERS.has(basename(w))));
  for (const w of candidates) {
    const pkg = /node_modules[\\/](@[\w.-]+[\\/])?([\w.-]+)/.exec(w);
    if (w.includes('node_modules') && pkg?.[2]) return clean(pkg[2]);
    if (/^(@[\w.-]+\/)?[\w.-]+(@[\w.^~-]+)?$/.test(w) && !existsSync(w))
      return clean(w.replace(/^@[\w.-]+\//, '').replace(/@.*$/, ''));
    let name = basename(w, extname(w));
    let dir = dirname(w);
    while (GENERIC.has(name) && dir && dir !== '.' && dir !== sep) {
      name = basename(dir);
      dir = dirname(dir);
    }
    if (!GENERIC.has(name)) return clean(name);
  }
  return 'server';
}

function clean(name: string): string {
  const c = name
    .toLowerCase()
    .replace(/\.(c|m)?[jt]s$|\.py$/, '')
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^(mcp-server-|server-|mcp-)/, '')
    .replace(/(-mcp-server|-server|-mcp)$/, '')
    .replace(/^-+|-+$/g, '');
  return c || 'server';
}

/** The server to connect to now (paths as given, relative to the current folder). */
export function serverFromFlags(flags: InitServerFlags): { spec: ServerSpec; words: string[]; name: string } {
  const given = [flags.server, flags.url, flags.builtin].filter((v) => v !== undefined);
  if (given.length !== 1) {
    throw new ToolgaugeError(
      'USAGE',
      'init: give exactly one of --server "<command …>" (a stdio MCP server), --url http://…/mcp or --builtin <name>',
    );
  }
  let spec: ServerSpec;
  let words: string[] = [];
  if (flags.builtin !== undefined) spec = { builtin: flags.builtin };
  else if (flags.url !== undefined) {
    if (!URL.canParse(flags.url) || !/^https?:$/.test(new URL(flags.url).protocol)) {
      throw new ToolgaugeError('USAGE', `--url ${flags.url}: not an http(s) URL; e.g. --url http://127.0.0.1:8123/mcp`);
    }
    spec = { url: flags.url };
  } else {
    words = splitCommand(flags.server ?? '');
    if (words.length === 0)
      throw new ToolgaugeError('USAGE', '--server: empty command; e.g. --server "npx -y my-mcp-server"');
    spec = { command: words };
  }
  const name = flags.name ? clean(flags.name) : guessServerName(flags, words);
  return { spec, words, name };
}

/**
 * The server as the suite file must name it: the words of a command that name an existing file or folder relative to
 * the current folder are rewritten relative to the suite's folder (a suite's stdio servers start there), so the suite
 * works from wherever it is run.
 */
export function specForSuite(spec: ServerSpec, suiteDir: string, cwd = process.cwd()): ServerSpec {
  if (!('command' in spec)) return spec;
  const command = spec.command.map((w, i) => {
    if (w.startsWith('-') || isAbsolute(w)) return w;
    // the executable itself only when it is written as a path (./server.js); a bare name is looked up on PATH
    if (i === 0 && !w.includes('/')) return w;
    if (!existsSync(resolve(cwd, w))) return w;
    const rel = relative(suiteDir, resolve(cwd, w)) || '.';
    return rel.startsWith('.') || rel.includes('/') ? rel : `./${rel}`;
  });
  return { ...spec, command };
}
