import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../tests/helpers/temp-dirs.js';
import { guessServerName, serverFromFlags, specForSuite, splitCommand } from './server-from-flags.js';

const tempDir = useTempDirs();

describe('splitCommand', () => {
  it('splits words as a shell does, without expansion', () => {
    expect(splitCommand(`node -e "console.log('a b')" 'x y' z\\ w`)).toEqual([
      'node',
      '-e',
      "console.log('a b')",
      'x y',
      'z w',
    ]);
    expect(() => splitCommand('node "open')).toThrow(/unclosed " quote/);
  });
});

describe('guessServerName', () => {
  it.each([
    ['npx -y @modelcontextprotocol/server-filesystem .', 'filesystem'],
    ['node node_modules/@modelcontextprotocol/server-filesystem/dist/index.js /tmp', 'filesystem'],
    ['node bin/toolgauge.js serve mcp excel', 'excel'],
    ['uvx mcp-server-git --repository .', 'git'],
    ['python3 weather_server.py', 'weather'],
    ['./build/index.js', 'server'],
    ['env MEMORY_FILE_PATH=/tmp/m.jsonl node node_modules/@modelcontextprotocol/server-memory/dist/index.js', 'memory'],
  ])('%s → %s', (command, name) => {
    expect(guessServerName({ server: command }, splitCommand(command))).toBe(name);
  });
  it.each([
    ['http://127.0.0.1:8123/mcp', 'server'],
    ['http://127.0.0.1:8123/weather/mcp', 'weather'],
    ['https://mcp.github.example/v1/mcp', 'github'],
  ])('%s → %s', (url, name) => {
    expect(guessServerName({ url }, [])).toBe(name);
  });
});

describe('serverFromFlags and specForSuite', () => {
  it('takes exactly one server, and rewrites path words relative to the suite folder', () => {
    expect(() => serverFromFlags({})).toThrow(/exactly one of/);
    expect(() => serverFromFlags({ url: 'ftp://x' })).toThrow(/not an http/);
    expect(serverFromFlags({ builtin: 'excel' })).toMatchObject({ spec: { builtin: 'excel' }, name: 'excel' });
    const cwd = tempDir('tg-init-spec-');
    mkdirSync(join(cwd, 'data'));
    writeFileSync(join(cwd, 'server.js'), '');
    const { spec } = serverFromFlags({ server: 'node ./server.js --root data --verbose npx' });
    expect(specForSuite(spec, join(cwd, 'eval', 'suites'), cwd)).toEqual({
      command: ['node', '../../server.js', '--root', '../../data', '--verbose', 'npx'],
    });
  });
});
