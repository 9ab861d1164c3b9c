// Discovery of the MCP servers (SEP-2127 server cards, the SEP-1649 aliases, the `/.well-known` catalog)
// and the JSON-RPC edges of the stateless HTTP server: which code each malformed message gets, and error
// messages that name their code once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { operations } from '../contract/index.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { askFor } from '../../testing/mcp-client-version.ts';
import { withoutErrorPrefix } from './mcp.ts';

const TOKEN = 'mcp-discovery-token-0123456789';
const CARD_TYPE = 'application/mcp-server-card+json';
let service: TestService;
before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN });
});
after(() => service.stop());

const bearer = { Authorization: `Bearer ${TOKEN}` };
const rpc = async (body: unknown, path = '/mcp') => {
  const res = await fetch(service.url + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};
const REPEATED = /MCP error -?\d+: MCP error/;

describe('MCP server cards and catalog', () => {
  it('serves the public card at <endpoint>/server-card, with the server-card media type when asked for', async () => {
    const res = await service.get('/mcp/server-card', { headers: { Accept: CARD_TYPE } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), CARD_TYPE);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const card = await res.json();
    assert.equal(card.$schema, 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json');
    assert.match(card.name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    assert.equal(card.name, 'test.vitae/noa-castellan');
    assert.equal(card.version, '1.1.0');
    assert.ok(card.description.length >= 1 && card.description.length <= 100);
    assert.ok(card.title.length <= 100);
    assert.equal(card.websiteUrl, 'http://vitae.test');
    assert.deepEqual(card.remotes, [{ type: 'streamable-http', url: 'http://vitae.test/mcp', supportedProtocolVersions: ['2025-11-25', '2025-06-18'] }]);
    assert.match((await service.get('/mcp/server-card')).headers.get('content-type')!, /^application\/json/);
  });

  it('agrees with the discovery document and the initialize answer', async () => {
    const card = await (await service.get('/mcp/server-card')).json();
    const discovery = await (await service.get('/mcp')).json();
    const meta = card._meta['vitae/discovery'];
    assert.equal(meta.endpoint, discovery.endpoint);
    assert.equal(meta.auth, discovery.auth);
    assert.equal(meta.protocolVersion, discovery.protocolVersion);
    assert.deepEqual(
      meta.tools,
      discovery.tools.map((t: { name: string }) => t.name),
    );
    const client = new Client({ name: 'card-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)));
    assert.equal(client.getServerVersion()?.name, card.name.split('/')[1]);
    assert.equal(client.getServerVersion()?.version, card.version);
    assert.deepEqual(Object.keys(client.getServerCapabilities() ?? {}).sort(), Object.keys(meta.capabilities).sort());
    await client.close();
  });

  it('serves the same public card at the SEP-1649 well-known aliases', async () => {
    const card = await (await service.get('/mcp/server-card')).json();
    for (const path of ['/.well-known/mcp/server-card.json', '/.well-known/mcp.json']) {
      const res = await service.get(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('access-control-allow-origin'), '*', path);
      assert.deepEqual(await res.json(), card, path);
    }
  });

  it('keeps the admin card behind the bearer token, and says the token is needed', async () => {
    assert.equal((await service.get('/mcp/admin/server-card')).status, 401);
    const res = await service.get('/mcp/admin/server-card', { headers: bearer });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const card = await res.json();
    assert.equal(card.name, 'test.vitae/noa-castellan-admin');
    assert.equal(card.remotes[0].url, 'http://vitae.test/mcp/admin');
    const [header] = card.remotes[0].headers;
    assert.equal(header.name, 'Authorization');
    assert.equal(header.isRequired, true);
    assert.equal(header.isSecret, true);
    assert.doesNotMatch(JSON.stringify(card), new RegExp(TOKEN));
    assert.deepEqual(
      card._meta['vitae/discovery'].tools.sort(),
      operations
        .filter((op) => op.auth === 'admin')
        .map((op) => op.name)
        .sort(),
    );
  });

  it('names the public server in /.well-known/mcp/catalog.json by the URL of its card, not the admin one an anonymous reader cannot open', async () => {
    const res = await service.get('/.well-known/mcp/catalog.json');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const catalog = await res.json();
    assert.equal(catalog.specVersion, 'draft');
    assert.deepEqual(
      catalog.entries.map((e: { url: string }) => e.url),
      ['http://vitae.test/mcp/server-card'],
    );
    for (const entry of catalog.entries) {
      assert.equal(entry.type, CARD_TYPE);
      assert.match(entry.identifier, /^urn:air:vitae\.test:/);
      assert.ok(entry.displayName);
      const card = await (await service.get(new URL(entry.url).pathname)).json(); // as the anonymous reader of the catalog
      assert.equal(entry.identifier, `urn:air:vitae.test:${card.name.split('/')[1]}`);
    }
  });
});

describe('MCP JSON-RPC edges', () => {
  it('answers -32600 to a message that is not a JSON-RPC request, notification or response', async () => {
    for (const body of [
      { jsonrpc: '2.0', id: {}, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1.5, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [] },
      { jsonrpc: '2.0', id: 1 },
      { method: 'tools/list', id: 1 },
    ]) {
      const { status, body: answer } = await rpc(body);
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(answer.error.code, -32600, JSON.stringify(body));
      assert.equal(answer.id, null);
    }
  });

  it('answers -32600 to a request the SDK’s schema refuses past the shape checked at the door', async () => {
    for (const params of [{ _meta: 5 }, { _meta: { progressToken: {} } }]) {
      const { status, body } = await rpc({ jsonrpc: '2.0', id: 9, method: 'tools/list', params });
      assert.equal(status, 200, JSON.stringify(params));
      assert.equal(body.id, 9);
      assert.equal(body.error.code, -32600, JSON.stringify(body));
    }
  });

  it('answers -32602 (not -32603) to params that break the method’s schema, naming the field once', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }, /params\.name/],
      [{ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_entry', arguments: [] } }, /params\.arguments/],
      [{ jsonrpc: '2.0', id: 3, method: 'resources/read', params: {} }, /params\.uri/],
      [{ jsonrpc: '2.0', id: 4, method: 'prompts/get', params: { name: 'pitch_for_role', arguments: { lens: 3 } } }, /params\.arguments\.lens/],
    ];
    for (const [body, field] of cases) {
      const { status, body: answer } = await rpc(body);
      assert.equal(status, 200);
      assert.equal(answer.id, (body as { id: number }).id);
      assert.equal(answer.error.code, -32602, JSON.stringify(answer));
      assert.match(answer.error.message, field);
      assert.doesNotMatch(answer.error.message, /MCP error/);
    }
  });

  it('answers -32601 to an unknown method, 202 to notifications and to responses', async () => {
    assert.equal((await rpc({ jsonrpc: '2.0', id: 'x', method: 'no/such/method' })).body.error.code, -32601);
    assert.equal((await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
    assert.equal((await rpc({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })).status, 202);
    assert.equal((await rpc({ jsonrpc: '2.0', id: 7, result: {} })).status, 202);
  });

  it('gives back the client’s own id, whatever it is', async () => {
    for (const id of [0, 'abc', 9007199254740991, '']) {
      const { body } = await rpc({ jsonrpc: '2.0', id, method: 'ping' });
      assert.deepEqual(body, { jsonrpc: '2.0', id, result: {} });
    }
    // A cached tool answer too.
    for (const id of ['first', 'second']) {
      const { body } = await rpc({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_lenses', arguments: {} } });
      assert.equal(body.id, id);
      assert.ok(body.result.structuredContent.lenses.length > 0);
    }
  });

  it('never repeats "MCP error <code>:" in what the SDK client reports', async () => {
    const client = new Client({ name: 'prefix-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)));
    const failures = [
      () => client.callTool({ name: 'no_such_tool', arguments: {} }),
      () => client.readResource({ uri: 'vitae://entries/no-such-entry' }),
      () => client.getPrompt({ name: 'pitch_for_role', arguments: {} }),
      () => client.request({ method: 'tools/call', params: {} }, CallToolResultSchema),
    ];
    for (const failure of failures) {
      await assert.rejects(failure(), (e: Error) => /^MCP error -?\d+: /.test(e.message) && !REPEATED.test(e.message));
    }
    await client.close();
    // Refused arguments are a protocol error for a client of 2025-06-18 (a tool result from 2025-11-25).
    const older = askFor(new Client({ name: 'prefix-test', version: '1' }), '2025-06-18');
    await older.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)));
    await assert.rejects(
      older.callTool({ name: 'get_entry', arguments: { slug: 42 } }),
      (e: Error) => /^MCP error -32602: /.test(e.message) && !REPEATED.test(e.message),
    );
    await older.close();
  });

  it('takes an SDK-made "MCP error" prefix off before sending', () => {
    const message = { jsonrpc: '2.0' as const, id: 1, error: { code: -32602, message: 'MCP error -32602: MCP error -32602: bad' } };
    assert.equal(withoutErrorPrefix(message).error.message, 'bad');
    const ok = { jsonrpc: '2.0' as const, id: 1, result: {} };
    assert.equal(withoutErrorPrefix(ok), ok);
  });
});
