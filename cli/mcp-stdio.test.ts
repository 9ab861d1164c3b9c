// `vitae mcp [--admin]` through the official MCP SDK client over stdio: the SDK spawns the real bin, which
// forwards every tool call to the running service.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { offeredOn, operations } from '../operations/contract/index.ts';
import { startTestService, type TestService } from '../testing/service.ts';
import { cleanEnv, runVitae, unusedPort, VITAE_BIN } from './run-vitae.ts';

const TOKEN = 'cli-mcp-token-0123456789abcdef';
let service: TestService;
before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN });
});
after(() => service.stop());

async function connect(args: string[], env: Record<string, string>) {
  const client = new Client({ name: 'vitae-cli-test', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: VITAE_BIN, args, env: cleanEnv(env) as Record<string, string>, cwd: tmpdir(), stderr: 'pipe' });
  await client.connect(transport);
  return client;
}

const names = (auth: 'public' | 'admin') =>
  operations
    .filter((op) => op.auth === auth && offeredOn(op, 'mcp'))
    .map((op) => op.name)
    .sort();

describe('vitae mcp (stdio)', () => {
  it('lists exactly the public operations and answers a call with the REST body', async () => {
    const client = await connect(['mcp'], { SITE_URL: service.url });
    try {
      const discovery = (await (await service.get('/mcp')).json()) as { name: string };
      assert.equal(client.getServerVersion()?.name, discovery.name, 'named like the site’s own MCP server');
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), names('public'));

      const result = await client.callTool({ name: 'get_entry', arguments: { slug: 'concierge-copilot', locale: 'fr' } });
      assert.notEqual(result.isError, true);
      const rest = await (await service.get('/api/v1/entries/concierge-copilot?locale=fr')).json();
      assert.deepEqual(result.structuredContent, rest);
    } finally {
      await client.close();
    }
  });

  it('returns isError with the API error body when the operation fails', async () => {
    const client = await connect(['mcp'], { SITE_URL: service.url });
    try {
      const result = await client.callTool({ name: 'get_entry', arguments: { slug: 'no-such-entry' } });
      assert.equal(result.isError, true);
      assert.equal(JSON.parse((result.content as Array<{ text: string }>)[0]!.text).code, 'not_found');
    } finally {
      await client.close();
    }
  });

  it('reports an unreachable service as a tool error naming SITE_URL, and keeps serving', async () => {
    const client = await connect(['mcp'], { SITE_URL: `http://127.0.0.1:${await unusedPort()}` });
    try {
      assert.equal(client.getServerVersion()?.name, 'vitae', 'falls back to "vitae" without a discovery document');
      const result = await client.callTool({ name: 'list_lenses', arguments: {} });
      assert.equal(result.isError, true);
      assert.match((result.content as Array<{ text: string }>)[0]!.text, /SITE_URL/);
      assert.ok((await client.listTools()).tools.length > 0);
    } finally {
      await client.close();
    }
  });

  it('--admin lists exactly the admin operations and calls them with SITE_ADMIN_TOKEN', async () => {
    const client = await connect(['mcp', '--admin', '--url', service.url], { SITE_ADMIN_TOKEN: TOKEN });
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), names('admin'));
      const result = await client.callTool({ name: 'admin_read_file', arguments: { slug: 'concierge-copilot' } });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      assert.equal((result.structuredContent as { path: string }).path, 'content/corpus/projects/concierge-copilot.md');
    } finally {
      await client.close();
    }
  });

  it('serves the same resources and prompts as /mcp, read through the REST API', async () => {
    const stdio = await connect(['mcp'], { SITE_URL: service.url });
    const http = new Client({ name: 'vitae-cli-test-http', version: '1.0.0' });
    await http.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)));
    try {
      assert.deepEqual(await stdio.listResourceTemplates(), await http.listResourceTemplates());
      assert.deepEqual(await stdio.listResources(), await http.listResources());
      assert.deepEqual(await stdio.listPrompts(), await http.listPrompts());
      const uri = 'vitae://entries/concierge-copilot?locale=ja';
      assert.deepEqual(await stdio.readResource({ uri }), await http.readResource({ uri }));
      const prompt = { name: 'pitch_for_role', arguments: { lens: 'solution-architect', locale: 'es' } };
      assert.deepEqual(await stdio.getPrompt(prompt), await http.getPrompt(prompt));
      await assert.rejects(
        stdio.readResource({ uri: 'vitae://entries/no-such-entry' }),
        (e: any) => e.code === -32002 && !/MCP error -?\d+: MCP error/.test(e.message),
      );
      // Refused arguments: a tool result in 2025-11-25 (the SDK client's version), the same over both transports.
      const refused = { name: 'get_entry', arguments: { slug: 'Not A Slug' } };
      const result = await stdio.callTool(refused);
      assert.equal(result.isError, true);
      assert.equal(JSON.parse((result.content as any)[0].text).code, 'not_found', 'a slug no entry can have names nothing');
      assert.deepEqual(result, await http.callTool(refused));
    } finally {
      await stdio.close();
      await http.close();
    }
  });

  it('negotiates the same protocol version as the HTTP server: 2025-11-25 when asked for, else 2025-06-18', async () => {
    for (const [asked, answered] of [
      ['2025-11-25', '2025-11-25'],
      ['2025-06-18', '2025-06-18'],
      ['2024-11-05', '2025-06-18'],
    ]) {
      const child = spawn(process.execPath, [VITAE_BIN, 'mcp'], { env: cleanEnv({ SITE_URL: service.url }), cwd: tmpdir(), stdio: ['pipe', 'pipe', 'ignore'] });
      const line = new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
      child.stdin.write(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }) + '\n',
      );
      const answer = JSON.parse(await line);
      child.kill();
      assert.equal(answer.result.protocolVersion, answered, asked);
      assert.ok(answer.result.capabilities.resources && answer.result.capabilities.prompts);
    }
  });

  it('--admin without SITE_ADMIN_TOKEN exits 4 and says how to set it', async () => {
    const run = await runVitae(['mcp', '--admin'], { env: { SITE_URL: service.url } });
    assert.equal(run.code, 4);
    assert.equal(run.stdout, '', 'nothing on the JSON-RPC channel');
    assert.match(run.stderr, /SITE_ADMIN_TOKEN/);
  });
});
