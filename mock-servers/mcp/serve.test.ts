import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { isLoopbackRequest } from '../../src/util/loopback-guard.js';
import { excelServer } from './excel/index.js';
import { type HttpServeHandle, serveHttp } from './serve.js';

const STDIO_ENTRY = fileURLToPath(new URL('../../tests/fixtures/excel-stdio.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

function rawRequest(
  url: string,
  opts: { method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method, headers: opts.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const initBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('serveHttp', () => {
  let handle: HttpServeHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  it('serves list + call to the SDK client on port 0, one fresh state per session', async () => {
    handle = await serveHttp(excelServer, { port: 0 });
    expect(handle.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(handle.url).not.toContain(':0/');

    const a = new Client({ name: 'a', version: '1' });
    const ta = new StreamableHTTPClientTransport(new URL(handle.url));
    await a.connect(ta);
    expect(ta.sessionId).toBeTruthy();
    expect((await a.listTools()).tools).toHaveLength(25);
    await a.callTool({ name: 'delete_worksheet', arguments: { filepath: 'test.xlsx', sheet_name: 'Sheet2' } });
    const gone = (await a.callTool({
      name: 'read_data_from_excel',
      arguments: { filepath: 'test.xlsx', sheet_name: 'Sheet2' },
    })) as CallToolResult;
    expect(gone.isError).toBe(true);

    const b = new Client({ name: 'b', version: '1' });
    const tb = new StreamableHTTPClientTransport(new URL(handle.url));
    await b.connect(tb);
    expect(tb.sessionId).not.toBe(ta.sessionId);
    const fresh = (await b.callTool({
      name: 'read_data_from_excel',
      arguments: { filepath: 'test.xlsx', sheet_name: 'Sheet2' },
    })) as CallToolResult;
    expect(fresh.isError).toBeFalsy();
    expect(JSON.stringify(fresh.content)).toContain('一号仓');

    // DELETE ends the session: the id is then unknown.
    const endedId = ta.sessionId as string;
    await ta.terminateSession();
    const after = await rawRequest(handle.url, {
      method: 'POST',
      headers: { ...mcpHeaders, 'mcp-session-id': endedId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
    await a.close();
    await b.close();
  });

  it('closes a session left idle past sessionIdleMs (a client gone without DELETE), not one still in use', async () => {
    handle = await serveHttp(excelServer, { port: 0, sessionIdleMs: 300 });
    const idle = new StreamableHTTPClientTransport(new URL(handle.url));
    const a = new Client({ name: 'idle', version: '1' });
    await a.connect(idle);
    const idleId = idle.sessionId as string;
    const busy = new Client({ name: 'busy', version: '1' });
    await busy.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    const until = Date.now() + 900;
    while (Date.now() < until) {
      await busy.listTools();
      await new Promise((r) => setTimeout(r, 50));
    }
    const expired = await rawRequest(handle.url, {
      method: 'POST',
      headers: { ...mcpHeaders, 'mcp-session-id': idleId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(expired.status).toBe(404);
    expect((await busy.listTools()).tools).toHaveLength(25);
    await a.close();
    await busy.close();
  });

  it('rejects non-loopback Host or Origin with 403 (DNS rebinding), bad JSON with 400, other paths with 404', async () => {
    handle = await serveHttp(excelServer, { port: 0 });
    const evil = await rawRequest(handle.url, {
      method: 'POST',
      headers: { ...mcpHeaders, host: 'evil.example' },
      body: initBody,
    });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body).error.message).toContain("Host 'evil.example' is not a loopback name or address");
    const otherPort = await rawRequest(handle.url, {
      method: 'POST',
      headers: { ...mcpHeaders, host: `127.0.0.1:${Number(new URL(handle.url).port) + 1}` },
      body: initBody,
    });
    expect(otherPort.status).toBe(403);
    const origin = await rawRequest(handle.url, {
      method: 'POST',
      headers: { ...mcpHeaders, origin: 'http://evil.example' },
      body: initBody,
    });
    expect(origin.status).toBe(403);
    const ok = await rawRequest(handle.url, {
      method: 'POST',
      headers: { ...mcpHeaders, origin: 'http://localhost:5173' },
      body: initBody,
    });
    expect(ok.status).toBe(200);
    const badJson = await rawRequest(handle.url, { method: 'POST', headers: mcpHeaders, body: '{"jsonrpc": ' });
    expect(badJson.status).toBe(400);
    expect(JSON.parse(badJson.body).error.code).toBe(-32700);
    const noSession = await rawRequest(handle.url, {
      method: 'POST',
      headers: mcpHeaders,
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    });
    expect(noSession.status).toBe(400);
    const wrongPath = await rawRequest(handle.url.replace('/mcp', '/other'), {
      method: 'POST',
      headers: mcpHeaders,
      body: initBody,
    });
    expect(wrongPath.status).toBe(404);
  });

  it('isLoopbackRequest accepts only loopback hosts and origins', () => {
    expect(isLoopbackRequest({ host: '127.0.0.1:8123' })).toBe(true);
    expect(isLoopbackRequest({ host: 'localhost' })).toBe(true);
    expect(isLoopbackRequest({ host: '[::1]:80' })).toBe(true);
    expect(isLoopbackRequest({ host: '127.0.0.1.evil.example' })).toBe(false);
    expect(isLoopbackRequest({})).toBe(false);
    expect(isLoopbackRequest({ host: 'localhost:1', origin: 'null' })).toBe(false);
    expect(isLoopbackRequest({ host: 'localhost:1', origin: 'https://127.0.0.1:3000' })).toBe(true);
    // With the server's port: the Host must name it (no port in the header means 80).
    expect(isLoopbackRequest({ host: '127.0.0.1:8123' }, 8123)).toBe(true);
    expect(isLoopbackRequest({ host: '[::1]:8123' }, 8123)).toBe(true);
    expect(isLoopbackRequest({ host: '127.0.0.1:8124' }, 8123)).toBe(false);
    expect(isLoopbackRequest({ host: 'localhost' }, 8123)).toBe(false);
    expect(isLoopbackRequest({ host: 'localhost' }, 80)).toBe(true);
  });
});

describe('serveStdio', () => {
  it('serves the SDK stdio client; stderr carries the log line', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', STDIO_ENTRY],
      cwd: REPO_ROOT,
      env: { ...process.env } as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const errors: Error[] = [];
    transport.onerror = (e) => errors.push(e);
    const client = new Client({ name: 'stdio-test', version: '1' });
    await client.connect(transport);
    expect((await client.listTools()).tools).toHaveLength(25);
    const r = (await client.callTool({
      name: 'read_data_from_excel',
      arguments: { filepath: 'myfile.xlsx', sheet_name: 'Sheet1' },
    })) as CallToolResult;
    expect(JSON.stringify(r.content)).toContain('张伟');
    await client.close();
    expect(errors).toEqual([]);
    expect(stderr).toContain("'excel' MCP server on stdio (25 tools)");
  });

  it('writes nothing but JSON-RPC lines to stdout', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', STDIO_ENTRY], {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    const gotBoth = new Promise<void>((resolve) => {
      child.stdout.on('data', (c: string) => {
        stdout += c;
        if (stdout.split('\n').filter(Boolean).length >= 2) resolve();
      });
    });
    child.stdin.write(`${initBody}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    await gotBoth;
    child.stdin.end();
    await new Promise((resolve) => child.on('exit', resolve));
    const lines = stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    const messages = lines.map((l) => JSON.parse(l) as { jsonrpc: string; id: number; result: { tools?: unknown[] } });
    expect(messages.map((m) => [m.jsonrpc, m.id])).toEqual([
      ['2.0', 1],
      ['2.0', 2],
    ]);
    expect(messages[1]?.result.tools).toHaveLength(25);
  });
});
