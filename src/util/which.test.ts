import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../tests/helpers/temp-dirs.js';
import { currentHost, type WhichHost, which } from './which.js';

const tempDir = useTempDirs();

/** A Windows machine: these files exist (matched case-insensitively, as NTFS does). */
function windows(files: string[], env: Record<string, string | undefined>): WhichHost {
  const present = new Set(files.map((f) => f.toLowerCase()));
  return { platform: 'win32', env, isRunnable: (p) => present.has(p.toLowerCase()) };
}

const NODE = 'C:\\Program Files\\nodejs';
const UV = 'C:\\Users\\me\\.local\\bin';
const env = { Path: `C:\\Windows\\system32;"${NODE}";${UV};`, PATHEXT: '.COM;.EXE;.BAT;.CMD;.VBS;.JS' };
const files = [
  `${NODE}\\npx.cmd`,
  `${NODE}\\node.exe`,
  `${UV}\\uvx.exe`,
  'C:\\Windows\\system32\\notes.txt',
  'C:\\tools\\server.EXE',
  'C:\\proj\\bin\\serve.bat',
  'C:\\proj\\local.cmd',
];

describe('which on Windows (simulated)', () => {
  const host = windows(files, env);

  it('finds npx and uvx through PATHEXT on a `;` PATH, quoted entries included, read from `Path`', () => {
    expect(which('npx', 'C:\\proj', host)).toBe(`${NODE}\\npx.cmd`);
    expect(which('uvx', 'C:\\proj', host)).toBe(`${UV}\\uvx.exe`);
    expect(which('node', 'C:\\proj', host)).toBe(`${NODE}\\node.exe`);
  });

  it('takes a name with a runnable extension as written', () => {
    expect(which('npx.cmd', 'C:\\proj', host)).toBe(`${NODE}\\npx.cmd`);
    expect(which('NPX.CMD', 'C:\\proj', host)?.toLowerCase()).toBe(`${NODE}\\npx.cmd`.toLowerCase());
  });

  it('does not run a file whose extension is not in PATHEXT', () => {
    expect(which('notes.txt', 'C:\\proj', host)).toBeUndefined();
    expect(which('notes', 'C:\\proj', host)).toBeUndefined();
  });

  it('resolves paths written with `\\` or `/`, absolute or from cwd, adding the extension', () => {
    expect(which('C:\\tools\\server', 'C:\\proj', host)).toBe('C:\\tools\\server.exe');
    expect(which('C:/tools/server.exe', 'C:\\proj', host)).toBe('C:\\tools\\server.exe');
    expect(which('.\\bin\\serve', 'C:\\proj', host)).toBe('C:\\proj\\bin\\serve.bat');
    expect(which('bin/serve.bat', 'C:\\proj', host)).toBe('C:\\proj\\bin\\serve.bat');
    expect(which('.\\bin\\missing', 'C:\\proj', host)).toBeUndefined();
  });

  it('searches cwd before PATH, as Windows and the spawner do', () => {
    expect(which('local', 'C:\\proj', host)).toBe('C:\\proj\\local.cmd');
  });

  it('uses the default extensions when PATHEXT is unset', () => {
    expect(which('npx', 'C:\\proj', windows(files, { PATH: `${NODE}` }))).toBe(`${NODE}\\npx.cmd`);
  });
});

describe('which on POSIX', () => {
  const root = tempDir('tg-which-');
  const bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'tool'), '#!/bin/sh\n');
  chmodSync(join(bin, 'tool'), 0o755);
  writeFileSync(join(bin, 'data'), '');
  chmodSync(join(bin, 'data'), 0o644);
  const posix = (PATH: string): WhichHost => ({
    platform: 'linux',
    env: { PATH },
    isRunnable: (p) => p === join(bin, 'tool'),
  });

  it('looks bare names up on a `:` PATH and paths up from cwd', () => {
    expect(which('tool', root, posix(`/nowhere:${bin}`))).toBe(join(bin, 'tool'));
    expect(which('./bin/tool', root, posix(''))).toBe(join(bin, 'tool'));
    expect(which('tool', root, posix(''))).toBeUndefined(); // cwd is not searched
  });

  it('treats `\\` as part of a name and `;` as part of a folder, not as separators', () => {
    expect(which('bin\\tool', root, posix(''))).toBeUndefined();
    expect(which('tool', root, posix(`/nowhere;${bin}`))).toBeUndefined();
  });

  it('needs the execute bit on this machine', () => {
    const host: WhichHost = { ...currentHost(), env: { PATH: bin } };
    expect(which('tool', root, host)).toBe(join(bin, 'tool'));
    expect(which('data', root, host)).toBeUndefined();
  });
});
