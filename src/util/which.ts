import { accessSync, constants, statSync } from 'node:fs';
import { posix, win32 } from 'node:path';

/** What `which` reads from its host; tests inject a Windows one on any machine. */
export interface WhichHost {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  /** Whether a path is a file this host could run (on Windows: any file; the extension is checked separately). */
  isRunnable: (path: string) => boolean;
}

/** Extensions Windows runs when PATHEXT is unset. */
const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/** This machine: its platform, environment and file system. */
export function currentHost(): WhichHost {
  const platform = process.platform;
  return {
    platform,
    env: process.env,
    isRunnable: (path) => {
      try {
        if (!statSync(path).isFile()) return false;
        if (platform !== 'win32') accessSync(path, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/**
 * Resolves an executable the way the process spawner will (cross-spawn, which starts stdio servers): a name with a
 * path separator (`/`, and `\` on Windows) is a path from `cwd`; a bare name is looked up on PATH. On Windows, the
 * folder `cwd` is searched first, PATH is split on `;` with quoted entries unquoted, the variables are read whatever
 * their case (`Path`), and each candidate is tried as written when its extension is one of PATHEXT, then with each
 * PATHEXT extension appended, so `npx` finds `npx.cmd`. Returns undefined if absent.
 */
export function which(
  command: string,
  cwd: string = process.cwd(),
  host: WhichHost = currentHost(),
): string | undefined {
  const windows = host.platform === 'win32';
  const path = windows ? win32 : posix;
  const hasSeparator = windows ? /[\\/]/.test(command) : command.includes('/');
  const dirs = hasSeparator
    ? ['']
    : [
        ...(windows ? [cwd] : []),
        ...(envOf(host, 'PATH') ?? '')
          .split(path.delimiter)
          .map((d) => (windows ? unquote(d) : d))
          .filter(Boolean),
      ];
  const extensions = windows ? pathExtensions(envOf(host, 'PATHEXT')) : [];
  for (const dir of dirs) {
    const base = dir ? path.join(dir, command) : path.resolve(cwd, command);
    for (const candidate of windows ? windowsCandidates(base, extensions) : [base]) {
      if (host.isRunnable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** On Windows, names as written only when their extension makes them runnable, then with each extension added. */
function windowsCandidates(base: string, extensions: readonly string[]): string[] {
  const ext = win32.extname(base).toLowerCase();
  const asWritten = ext && extensions.includes(ext) ? [base] : [];
  return [...asWritten, ...extensions.map((e) => base + e)];
}

function pathExtensions(value: string | undefined): string[] {
  return (value || DEFAULT_PATHEXT)
    .split(';')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e.startsWith('.'));
}

/** Windows environment variable names are case-insensitive (`Path`, `PATH`); elsewhere they are exact. */
function envOf(host: WhichHost, name: string): string | undefined {
  if (host.platform !== 'win32') return host.env[name];
  for (const [key, value] of Object.entries(host.env)) if (key.toUpperCase() === name) return value;
  return undefined;
}

function unquote(dir: string): string {
  return dir.length > 1 && dir.startsWith('"') && dir.endsWith('"') ? dir.slice(1, -1) : dir;
}
