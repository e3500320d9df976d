import { describe, expect, it } from 'vitest';
import { nativeToolNames } from '../../renderers/parts/tool-names.js';
import type { ToolDef } from '../contracts/tool.js';
import { resolveToolName } from './resolve-tool-name.js';

const tool = (name: string, server = 'inline'): ToolDef => ({ name, server, inputSchema: { type: 'object' } });

describe('resolveToolName', () => {
  const offered = [tool('math.factorial'), tool('list.dir/v2', 'fs'), tool('get weather'), tool('météo.jour')];

  it('an offered name is exact', () => {
    expect(resolveToolName('math.factorial', offered)).toEqual({
      how: 'exact',
      tool: 'math.factorial',
      server: 'inline',
      called: 'math.factorial',
    });
  });

  it('the provider-safe form of one offered tool resolves to it: dots, slashes, spaces, non-ASCII', () => {
    for (const [called, name] of [
      ['math_factorial', 'math.factorial'],
      ['list_dir_v2', 'list.dir/v2'],
      ['get_weather', 'get weather'],
      ['m_t_o_jour', 'météo.jour'],
    ]) {
      expect(resolveToolName(called as string, offered)).toMatchObject({ how: 'provider-safe', tool: name, called });
    }
  });

  it('names are case-sensitive: another case is not the provider-safe form', () => {
    expect(resolveToolName('Math_Factorial', offered)).toEqual({ how: 'unknown', called: 'Math_Factorial' });
    expect(resolveToolName('MATH.FACTORIAL', offered)).toEqual({ how: 'unknown', called: 'MATH.FACTORIAL' });
  });

  it('server__tool, server/tool and server.tool name an offered tool of that server', () => {
    const tools = [tool('read_file', 'coder'), tool('read_file', 'fs'), tool('write', 'fs')];
    for (const called of ['fs__read_file', 'fs/read_file', 'fs.read_file']) {
      expect(resolveToolName(called, tools)).toEqual({ how: 'qualified', tool: 'read_file', server: 'fs', called });
    }
    expect(resolveToolName('coder__write', tools)).toEqual({ how: 'unknown', called: 'coder__write' });
    // a qualified provider-safe name: the server's tool's provider-safe form after the server
    expect(resolveToolName('fs__list_dir_v2', offered)).toMatchObject({
      how: 'provider-safe',
      tool: 'list.dir/v2',
      server: 'fs',
    });
  });

  it('mcp__server__tool, as MCP clients such as Claude Code name tools, resolves like server__tool', () => {
    const tools = [tool('read_file', 'coder'), tool('read_file', 'fs'), tool('math.factorial', 'calc')];
    expect(resolveToolName('mcp__fs__read_file', tools)).toEqual({
      how: 'qualified',
      tool: 'read_file',
      server: 'fs',
      called: 'mcp__fs__read_file',
    });
    expect(resolveToolName('mcp__calc__math_factorial', tools)).toMatchObject({
      how: 'provider-safe',
      tool: 'math.factorial',
      called: 'mcp__calc__math_factorial',
    });
    expect(resolveToolName('mcp__other__read_file', tools)).toEqual({
      how: 'unknown',
      called: 'mcp__other__read_file',
    });
  });

  it('the server__tool form the native renderer gives a name two servers share resolves to that server', () => {
    const tools = [tool('fs.read', 'a'), tool('fs.read', 'b')];
    const names = nativeToolNames(tools, 'openai').map((t) => t.name);
    expect(names).toEqual(['a__fs_read', 'b__fs_read']);
    expect(resolveToolName('a__fs_read', tools)).toEqual({
      how: 'provider-safe',
      tool: 'fs.read',
      server: 'a',
      called: 'a__fs_read',
    });
    expect(resolveToolName('b__fs_read', tools)).toMatchObject({ tool: 'fs.read', server: 'b' });
  });

  it('a long name resolves from its hashed form at 64 (OpenAI, Ollama) and at 128 (Anthropic)', () => {
    const long = `analytics.${'very_long_segment.'.repeat(9)}compute`;
    const tools = [tool(long, 'stats'), tool('other')];
    const at64 = nativeToolNames(tools, 'openai').find((t) => t.target.tool === long)?.name as string;
    const at128 = nativeToolNames(tools, 'anthropic').find((t) => t.target.tool === long)?.name as string;
    const safe = long.replace(/\./g, '_');
    expect(at64).toBe(`${safe.slice(0, 55)}_${at64.slice(-8)}`);
    expect(at128).toBe(`${safe.slice(0, 119)}_${at128.slice(-8)}`);
    expect(at64.slice(-8)).toMatch(/^[0-9a-f]{8}$/);
    expect(at128.slice(-8)).toBe(at64.slice(-8));
    for (const called of [at64, at128]) {
      expect(resolveToolName(called, tools)).toEqual({ how: 'provider-safe', tool: long, server: 'stats', called });
    }
    // the hash is of server/tool: the same cut name with another hash is not this tool
    expect(resolveToolName(`${at64.slice(0, 55)}_00000000`, tools).how).toBe('unknown');
    // without its server a long name has no hashed form to match
    expect(resolveToolName(at64, [{ name: long }]).how).toBe('unknown');
  });

  it('the provider-safe form of several tools is ambiguous and names them; the renderer’s clash names are not', () => {
    const tools = [tool('a.b'), tool('a/b'), tool('c')];
    expect(resolveToolName('a_b', tools)).toEqual({ how: 'ambiguous', candidates: ['a.b', 'a/b'], called: 'a_b' });
    // the renderer gives the second one the hash suffix, which names it alone
    const rendered = nativeToolNames(tools, 'openai');
    expect(rendered.map((t) => t.name)).toEqual(['a_b', expect.stringMatching(/^a_b_[0-9a-f]{8}$/), 'c']);
    expect(resolveToolName(rendered[1]?.name as string, tools)).toMatchObject({ how: 'provider-safe', tool: 'a/b' });
  });

  it('a name that is one tool’s exact name and another’s provider-safe form is the exact one', () => {
    const tools = [tool('math.factorial'), tool('math_factorial')];
    expect(resolveToolName('math_factorial', tools)).toMatchObject({ how: 'exact', tool: 'math_factorial' });
  });

  it('a name no offered tool has, in any form, is unknown', () => {
    expect(resolveToolName('math_power', offered)).toEqual({ how: 'unknown', called: 'math_power' });
    expect(resolveToolName('', offered)).toEqual({ how: 'unknown', called: '' });
    expect(resolveToolName('math_factorial', [])).toEqual({ how: 'unknown', called: 'math_factorial' });
  });

  it('every name the native renderer gives, at either limit, resolves back to its target', () => {
    const long = 'x'.repeat(140);
    const tools = [
      tool('read_file', 'coder'),
      tool('read_file', 'fs'),
      tool('list.dir/v2', 'fs'),
      tool('list dir/v2', 'fs'),
      tool(long, 'fs'),
      tool(`${long}.y`, 'fs'),
      tool('search', 'web'),
    ];
    for (const kind of ['openai', 'anthropic'] as const) {
      for (const { name, target } of nativeToolNames(tools, kind)) {
        const r = resolveToolName(name, tools);
        // the plain safe form of two tools (list.dir/v2, list dir/v2) is ambiguous; the renderer gave one of them
        // the plain name, so only that name may be ambiguous
        if (r.how === 'ambiguous') {
          expect(name).toBe('list_dir_v2');
          expect(r.candidates).toEqual(['list.dir/v2', 'list dir/v2']);
          continue;
        }
        expect(r).toMatchObject({ tool: target.tool, server: target.server });
      }
    }
  });
});
