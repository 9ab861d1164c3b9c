// The two protocol versions of the MCP servers, through the official SDK client over Streamable HTTP:
// 2025-06-18, the one the README names and the answer to any other ask, and 2025-11-25 for a client that asks
// for it; the MCP-Protocol-Version header, by which each request to the stateless server says whose rules
// answer it; and what 2025-11-25 changes here: refused arguments as tool results, the server's description
// and website, JSON Schema 2020-12 as the dialect of the tools' schemas.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startTestService, type TestService } from '../../testing/service.ts';
import { askFor } from '../../testing/mcp-client-version.ts';

const TOKEN = 'mcp-versions-token-0123456789';
const bearer = { Authorization: `Bearer ${TOKEN}` };
let service: TestService;
before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN });
});
after(() => service.stop());

/** An SDK client of /mcp (or `path`) that asks for `asks` (default: the SDK's latest, 2025-11-25), and the version it was answered. */
async function connect(asks?: string, path = '/mcp', headers: Record<string, string> = {}) {
  const client = new Client({ name: 'vitae-versions-test', version: '1.0.0' });
  if (asks) askFor(client, asks);
  const transport = new StreamableHTTPClientTransport(new URL(service.url + path), { requestInit: { headers } });
  await client.connect(transport);
  return { client, version: transport.protocolVersion };
}

const rpc = async (body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${service.url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};
const initialize = (protocolVersion: string) =>
  rpc({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '1' } } });

/** A tool result's error body. */
const errorBody = (result: Record<string, unknown>) =>
  JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as { code: string; message: string; errors?: Array<{ pointer: string; message: string }> };

describe('MCP version negotiation', () => {
  it('answers 2025-11-25 to a client that asks for it and 2025-06-18 to one that asks for that, on both servers', async () => {
    for (const [path, headers] of [
      ['/mcp', {}],
      ['/mcp/admin', bearer],
    ] as const) {
      for (const asks of [undefined, '2025-11-25', '2025-06-18']) {
        const { client, version } = await connect(asks, path, headers);
        assert.equal(version, asks ?? '2025-11-25', `${path}, asking for ${asks ?? 'the SDK’s latest'}`);
        assert.ok((await client.listTools()).tools.length > 0);
        await client.close();
      }
    }
  });

  it('answers 2025-06-18, the version SPEC names, to a client asking for an older or an unknown one', async () => {
    for (const asked of ['2025-03-26', '2024-11-05', '2024-10-07', '2026-07-28', '1999-01-01', 'latest']) {
      const { status, body } = await initialize(asked);
      assert.equal(status, 200, asked);
      assert.equal(body.result.protocolVersion, '2025-06-18', asked);
    }
    // The SDK's client speaks 2025-06-18 too, so one asking for 2025-03-26 carries on with it.
    const { client, version } = await connect('2025-03-26');
    assert.equal(version, '2025-06-18');
    await client.close();
  });

  it('says what it is: its name and title in both versions, and from 2025-11-25 its description and website', async () => {
    const newer = await connect();
    assert.deepEqual(newer.client.getServerVersion(), {
      name: 'noa-castellan',
      title: 'Noa Castellan',
      version: '1.1.0',
      description: 'The professional profile of Noa Castellan: brief, entries, role lenses, documents, search, questions.',
      websiteUrl: 'http://vitae.test',
    });
    const older = await connect('2025-06-18');
    assert.deepEqual(older.client.getServerVersion(), { name: 'noa-castellan', title: 'Noa Castellan', version: '1.1.0' });
    await Promise.all([newer.client.close(), older.client.close()]);
  });
});

describe('MCP-Protocol-Version', () => {
  it('answers 400 (-32600) to a version this server does not speak, older ones included, naming the two it does', async () => {
    for (const version of ['1999-01-01', '2025-03-26', '2024-11-05', 'latest']) {
      const { status, body } = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'MCP-Protocol-Version': version });
      assert.equal(status, 400, version);
      assert.equal(body.error.code, -32600, version);
      assert.match(body.error.message, /2025-11-25 and 2025-06-18/, version);
    }
    for (const version of ['2025-11-25', '2025-06-18']) {
      const { status } = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'MCP-Protocol-Version': version });
      assert.equal(status, 200, version);
    }
  });

  it('answers each request by the rules of the version its header names, whatever else the server is answering', async () => {
    const call = (version?: string) =>
      rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_entry', arguments: {} } }, version ? { 'MCP-Protocol-Version': version } : {});
    // Interleaved on the one prepared server; no header: the rules before 2025-11-25.
    const answers = await Promise.all([1, 2, 3].flatMap(() => [call('2025-11-25'), call('2025-06-18'), call()]));
    answers.forEach(({ status, body }, i) => {
      assert.equal(status, 200);
      if (i % 3 === 0) assert.equal(body.result.isError, true, JSON.stringify(body));
      else assert.equal(body.error.code, -32602, JSON.stringify(body));
    });
  });
});

describe('what 2025-11-25 changes', () => {
  it('returns arguments a tool refuses as a tool result with isError naming each field, so the model can correct them (SEP-1303)', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'get_entry', arguments: { slug: 'Not A Slug', locale: 'klingon' } });
    assert.equal(result.isError, true);
    const body = errorBody(result);
    assert.equal(body.code, 'bad_request');
    assert.deepEqual(
      body.errors?.map((p) => p.pointer),
      ['/slug', '/locale'],
    );
    for (const problem of body.errors) assert.ok(body.message.includes(problem.message));
    // An unknown tool is still the client's mistake, not the model's: a protocol error.
    await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), (e: { code?: number }) => e.code === -32602);
    await client.close();

    const admin = await connect(undefined, '/mcp/admin', bearer);
    const refused = await admin.client.callTool({ name: 'admin_read_file', arguments: { path: 'content/site.json', slug: 'concierge-copilot' } });
    assert.equal(refused.isError, true);
    assert.match(errorBody(refused).message, /either path or slug/);
    await admin.client.close();
  });

  it('and to a client of 2025-06-18 as -32602 naming each field, as before', async () => {
    const { client } = await connect('2025-06-18');
    await assert.rejects(
      client.callTool({ name: 'get_entry', arguments: { slug: 'Not A Slug', locale: 'klingon' } }),
      (e: { code?: number; data?: { code: string; errors: unknown[] }; message: string }) =>
        e.code === -32602 && e.data?.code === 'bad_request' && e.data.errors.length === 2 && /slug/.test(e.message) && /locale/.test(e.message),
    );
    await client.close();
  });

  it('describes its tools in JSON Schema 2020-12, the dialect 2025-11-25 assumes where a schema names none', async () => {
    const ajv = new Ajv2020({ strict: false });
    for (const [path, headers] of [
      ['/mcp', {}],
      ['/mcp/admin', bearer],
    ] as const) {
      const { client } = await connect(undefined, path, headers);
      for (const tool of (await client.listTools()).tools) {
        for (const [which, schema] of [
          ['input', tool.inputSchema],
          ['output', tool.outputSchema],
        ] as const) {
          assert.equal(schema && '$schema' in schema, false, `${tool.name} ${which}: no dialect of its own`);
          assert.ok(ajv.validateSchema(schema as object), `${tool.name} ${which}: ${ajv.errorsText(ajv.errors)}`);
          ajv.compile(schema as object); // and usable as one: every reference resolves
        }
      }
      await client.close();
    }
  });
});
