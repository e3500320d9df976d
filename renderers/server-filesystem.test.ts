import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderKind } from '../src/contracts/model.js';
import type { ToolDef } from '../src/contracts/tool.js';
import { countTokens, requestTokens } from '../src/util/tokens.js';
import { catalogOf, readCase } from '../tests/fixtures/excel-catalog.js';
import { renderOnce } from '../tests/helpers/render-once.js';
import { renderers } from './index.js';

// The real tools of @modelcontextprotocol/server-filesystem, listed over stdio by the real SDK client.
describe('rendering the real @modelcontextprotocol/server-filesystem catalog', () => {
  let dir: string;
  let client: Client;
  let tools: ToolDef[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolgauge-fs-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', dir],
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'ignore',
    });
    client = new Client({ name: 'toolgauge-test', version: '0.0.0' });
    await client.connect(transport);
    const listed = await client.listTools();
    tools = listed.tools.map((t) => ({
      server: 'filesystem',
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      inputSchema: t.inputSchema,
      ...(t.annotations ? { annotations: t.annotations } : {}),
    }));
  });

  afterAll(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists real tools', () => {
    expect(tools.length).toBeGreaterThan(5);
    expect(tools.map((t) => t.name)).toContain('read_text_file');
  });

  it('every renderer renders them; details show every parameter, names-only shows none', () => {
    const kinds: ProviderKind[] = ['openai', 'anthropic', 'ollama'];
    for (const kind of kinds) {
      const input = { catalog: catalogOf(tools), case: readCase, provider: { id: `${kind}:m`, kind }, options: {} };
      const full = renderOnce(renderers['full-details'], input);
      const names = renderOnce(renderers['names-only'], input);
      const native = renderOnce(renderers['native-functions'], input);
      const cached = renderOnce(renderers['cached-schemas'], { ...input, catalog: catalogOf(tools, 'cache') });
      for (const t of tools) {
        expect(names.system).toContain(t.name);
        expect(full.system).toContain(`## ${t.name}\n`);
        expect(cached.system).toContain(`- ${t.name}(`);
        const props = Object.keys((t.inputSchema.properties as object | undefined) ?? {});
        for (const p of props) expect(full.system).toContain(`- ${p} (`);
      }
      expect(names.system).not.toContain('- path (');
      expect(native.tools).toHaveLength(tools.length);
      for (const rt of native.tools ?? []) expect(rt.parameters.type).toBe('object');
      // The detailed prompt costs more tokens than the names-only one: the report shows these sizes.
      expect(requestTokens(full)).toBeGreaterThan(requestTokens(names));
      expect(countTokens(cached.system)).toBeLessThan(countTokens(full.system));
    }
  });

  it('describes a real nested parameter (edit_file edits: array of {oldText, newText})', () => {
    const full = renderOnce(renderers['full-details'], {
      catalog: catalogOf(tools),
      case: readCase,
      provider: { id: 'sim:oracle', kind: 'sim' },
      options: {},
    });
    const block = full.system.slice(full.system.indexOf('## edit_file\n')).split('\n## ')[0] ?? '';
    expect(block).toMatch(/- edits \(array<object>, required\)/);
    expect(block).toMatch(/ {2}- oldText \(string, required\)/);
  });
});
