// The MCP servers through the official SDK client over Streamable HTTP, and the protocol edges by hand.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { offeredOn, operations } from '../contract/index.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai.ts';

let service: TestService;
let model: FakeOpenAI;
before(async () => {
  model = await startFakeOpenAI();
  model.fallback = { text: 'Noa is based in Lisbon (profile).' };
  service = await startTestService({ ADMIN_TOKEN: 'test-admin-token-0123456789', OPENAI_BASE_URL: model.url });
});
after(async () => {
  await service.stop();
  await model.close();
});

async function connect(path = '/mcp', headers: Record<string, string> = {}) {
  const client = new Client({ name: 'vitae-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(service.url + path), { requestInit: { headers } }));
  return client;
}

const validArguments: Record<string, Record<string, unknown>> = {
  get_brief: { locale: 'fr' },
  list_experience: { tag: 'ai', locale: 'ja' },
  get_entry: { slug: 'concierge-copilot', locale: 'es' },
  list_lenses: {},
  get_lens: { id: 'head-of-ai', locale: 'fr' },
  search_subject: { query: 'hotel guests', limit: 3 },
  get_document: { name: 'thinking', locale: 'zh' },
  ask_subject: { question: 'Where is Noa based?', locale: 'en' },
};
const invalidArguments: Record<string, Record<string, unknown>> = {
  get_brief: { locale: 'xx' },
  list_experience: { tag: 'cooking' },
  get_entry: {},
  list_lenses: { locale: 42 },
  get_lens: { id: 'head-of-ai', locale: 'xx' },
  search_subject: { query: '' },
  get_document: { name: 42 },
  ask_subject: { question: '' },
};

const rpc = (body: unknown, headers: Record<string, string> = {}, path = '/mcp') =>
  fetch(service.url + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

describe('public MCP server /mcp', () => {
  it('lists exactly the public operations as tools, with input and output schemas', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name).sort(),
      operations
        .filter((op) => op.auth === 'public' && offeredOn(op, 'mcp'))
        .map((op) => op.name)
        .sort(),
    );
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.outputSchema?.type, 'object');
      assert.ok(tool.description && tool.description.length > 10);
      assert.equal(tool.annotations?.readOnlyHint, true, `${tool.name}: the public tools only read`);
      const byModel = ['ask_subject', 'match_role'].includes(tool.name);
      assert.equal(tool.annotations?.openWorldHint, byModel, `${tool.name}: only ask_subject and match_role reach a model`);
      assert.equal(tool.annotations?.idempotentHint, !byModel, `${tool.name}: only a model answers the same question differently`);
    }
    await client.close();
  });

  it('answers every tool with structured content matching its output schema', async () => {
    const client = await connect();
    for (const op of operations.filter((o) => o.auth === 'public' && offeredOn(o, 'mcp'))) {
      // Operations added later bring their own examples from their definitions.
      const args = validArguments[op.name] ?? op.examples?.valid?.[0]?.input ?? {};
      const result = await client.callTool({ name: op.name, arguments: args });
      assert.notEqual(result.isError, true, `${op.name}: ${JSON.stringify(result.content)}`);
      op.output.parse(result.structuredContent);
      assert.deepEqual(JSON.parse((result.content as any)[0].text), result.structuredContent, 'a text copy for older clients');
    }
    await client.close();
  });

  it('refuses invalid arguments with a tool result naming each field (2025-11-25; mcp-versions.test.ts has 2025-06-18’s -32602)', async () => {
    const client = await connect();
    for (const op of operations.filter((o) => o.auth === 'public' && offeredOn(o, 'mcp'))) {
      const args = invalidArguments[op.name] ?? op.examples?.invalid?.[0]?.input;
      if (!args) continue; // nothing a caller can get wrong
      const result = await client.callTool({ name: op.name, arguments: args });
      assert.equal(result.isError, true, op.name);
      const body = JSON.parse((result.content as any)[0].text);
      assert.ok(body.code === 'bad_request' && body.errors.length > 0 && body.errors.every((p: any) => body.message.includes(p.message)), op.name);
    }
    await assert.rejects(client.callTool({ name: 'admin_write_file', arguments: {} }), (e: any) => e.code === -32602 && /Unknown tool/.test(e.message));
    await client.close();
  });

  it('returns isError with the error body when the operation fails, its hint naming a tool rather than a REST route', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'get_entry', arguments: { slug: 'no-such-entry' } });
    assert.equal(result.isError, true);
    const body = JSON.parse((result.content as any)[0].text);
    assert.equal(body.code, 'not_found');
    assert.match(body.message, /no-such-entry/);
    assert.match(body.message, /the `list_experience` tool/);
    assert.doesNotMatch(body.message, /\/api\//);
    await client.close();
  });

  it('answers an argument that addresses nothing as not_found, in the same words as the REST API’s 404', async () => {
    const client = await connect();
    for (const [name, args, route] of [
      ['get_document', { name: 'diary' }, '/api/v1/documents/diary'],
      ['get_lens', { id: 'astronaut' }, '/api/v1/lenses/astronaut'],
      ['get_entry', { slug: 'BAD SLUG' }, '/api/v1/entries/BAD%20SLUG'],
      ['get_entry', { slug: 'CONCIERGE-COPILOT' }, '/api/v1/entries/CONCIERGE-COPILOT'],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      assert.equal(result.isError, true, name);
      const rest = await service.get(route);
      assert.equal(rest.status, 404, route);
      assert.deepEqual(JSON.parse((result.content as any)[0].text), await rest.json(), route);
    }
    const document = await client.callTool({ name: 'get_document', arguments: { name: 'diary' } });
    assert.match((document.content as any)[0].text, /No document with name \\"diary\\": name must be one of: profile, credentials/);
    // Not text at all is a malformed call, not an address: 400 on every door.
    const typed = await client.callTool({ name: 'get_entry', arguments: { slug: 42 } });
    assert.equal(JSON.parse((typed.content as any)[0].text).code, 'bad_request');
    await client.close();
  });

  it('takes a locale in any case (zh-Hant, FR), in tools and resources alike', async () => {
    const client = await connect();
    const entry = await client.callTool({ name: 'get_entry', arguments: { slug: 'concierge-copilot', locale: 'zh-Hant' } });
    assert.equal(entry.isError, undefined, JSON.stringify(entry));
    assert.equal((entry.structuredContent as any).locale, 'zh-hant');
    const lenses = await client.callTool({ name: 'list_lenses', arguments: { locale: 'FR' } });
    assert.equal((lenses.structuredContent as any).lenses[0].locale, 'fr');
    const brief = await client.readResource({ uri: 'vitae://brief?locale=JA' });
    assert.ok(brief.contents.length > 0);
    await client.close();
  });

  it('gives 50 concurrent clients their own answers', async () => {
    const { body } = { body: await (await service.get('/api/v1/entries')).json() };
    const slugs: string[] = body.entries.map((e: any) => e.slug);
    const locales = ['en', 'fr', 'ja', 'zh', 'es', 'eo', 'zh-hant'];
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const client = await connect();
        const slug = slugs[i % slugs.length]!;
        const locale = locales[i % locales.length]!;
        if (i % 2) {
          const r = await client.callTool({ name: 'get_entry', arguments: { slug, locale } });
          assert.equal((r.structuredContent as any).slug, slug);
          assert.equal((r.structuredContent as any).locale, locale);
        } else {
          const r = await client.callTool({ name: 'list_experience', arguments: { locale, kind: 'project' } });
          assert.ok((r.structuredContent as any).entries.every((e: any) => e.locale === locale && e.kind === 'project'));
        }
        await client.close();
      }),
    );
  });
});

describe('ask_subject over MCP', () => {
  it('aborts the model call when its client hangs up', async () => {
    model.script({ hang: true });
    const client = await connect();
    const before = model.requests.length; // earlier tests' requests, finished
    const controller = new AbortController();
    const call = client.callTool({ name: 'ask_subject', arguments: { question: 'Tell me everything.' } }, undefined, { signal: controller.signal });
    for (let i = 0; i < 500 && model.requests.length === before; i++) await new Promise((r) => setTimeout(r, 20));
    const request = model.requests.at(-1)!;
    assert.ok(model.requests.length > before && request.path.endsWith('/chat/completions'), 'the model was asked');
    assert.equal(request.aborted, false);
    controller.abort();
    await assert.rejects(call);
    await client.close(); // the HTTP request under the call is closed with it
    for (let i = 0; i < 200 && !request.aborted; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(request.aborted, true, 'the scripted model server saw its request aborted');
  });
});

describe('MCP protocol', () => {
  it('initialises with the site short name and version 1.1.0 (mcp-versions.test.ts: which protocol version)', async () => {
    const res = await rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.result.protocolVersion, '2025-06-18');
    assert.equal(body.result.serverInfo.name, 'noa-castellan');
    assert.equal(body.result.serverInfo.version, '1.1.0');
  });

  it('answers JSON that is not JSON-RPC with -32600 (invalid request), not -32700', async () => {
    for (const body of [{ hello: 'world' }, { jsonrpc: '1.0', id: 1, method: 'tools/list' }, 42, 'text', null]) {
      const res = await rpc(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      const { error } = await res.json();
      assert.equal(error.code, -32600, JSON.stringify(body));
      assert.doesNotMatch(error.message, /MCP error -32600: MCP error/);
    }
  });

  it('rejects JSON-RPC batches with -32600 and malformed JSON with -32700', async () => {
    const batch = await rpc([
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ]);
    assert.equal((await batch.json()).error.code, -32600);
    const bad = await fetch(service.url + '/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{nope' });
    assert.equal((await bad.json()).error.code, -32700);
  });

  it('serves the discovery document on GET, 405 for an event stream or DELETE', async () => {
    const res = await service.get('/mcp');
    const doc = await res.json();
    assert.equal(doc.name, 'noa-castellan');
    assert.equal(doc.version, '1.1.0');
    assert.equal(doc.protocolVersion, '2025-06-18', 'the version SPEC names');
    assert.deepEqual(doc.supportedProtocolVersions, ['2025-11-25', '2025-06-18']);
    assert.equal(doc.transport, 'streamable-http');
    assert.equal(doc.endpoint, 'http://vitae.test/mcp');
    assert.equal(doc.auth, 'none');
    assert.deepEqual(
      doc.tools.map((t: any) => t.name).sort(),
      operations
        .filter((op) => op.auth === 'public' && offeredOn(op, 'mcp'))
        .map((op) => op.name)
        .sort(),
    );
    assert.equal((await service.get('/mcp', { headers: { Accept: 'text/event-stream' } })).status, 405);
    assert.equal((await service.get('/mcp', { method: 'DELETE' })).status, 405);
  });

  it('refuses a foreign browser Origin, a foreign Host, and an oversized body', async () => {
    const foreign = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { Origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(service.url + '/mcp', { method: 'GET', headers: { Host: 'attacker.example' } }, (res) => resolve(res.statusCode!));
      req.on('error', reject);
      req.end();
    });
    assert.equal(status, 403);
    const huge = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(1_100_000) } });
    assert.equal(huge.status, 413);
  });
});

describe('admin MCP server /mcp/admin', () => {
  it('answers 401 with WWW-Authenticate without the token or with a wrong one, and never echoes it', async () => {
    for (const headers of [{}, { Authorization: 'Bearer wrong-token' }] as Array<Record<string, string>>) {
      const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers, '/mcp/admin');
      assert.equal(res.status, 401);
      assert.match(res.headers.get('www-authenticate')!, /^Bearer/);
      assert.doesNotMatch(await res.text(), /wrong-token|test-admin-token/);
    }
    assert.equal((await service.get('/mcp/admin')).status, 401);
  });

  it('lists exactly the admin operations for the bearer token', async () => {
    const client = await connect('/mcp/admin', { Authorization: 'Bearer test-admin-token-0123456789' });
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name).sort(),
      operations
        .filter((op) => op.auth === 'admin')
        .map((op) => op.name)
        .sort(),
    );
    // Hosts can tell a read from a change, and a change that removes from one that adds.
    const hints = (name: string) => tools.find((t) => t.name === name)!.annotations;
    assert.deepEqual(hints('admin_read_file'), {
      title: hints('admin_read_file')!.title,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    assert.equal(hints('admin_delete_file')!.readOnlyHint, false);
    assert.equal(hints('admin_delete_file')!.destructiveHint, true);
    assert.equal(hints('admin_commit_changes')!.idempotentHint, true, 'the same change set again commits nothing more');
    assert.equal(hints('admin_promote')!.destructiveHint, true, 'main takes dev’s versions and loses what dev deleted');
    // A model's proposal or drafts: never committed, reaching a model provider, different each time.
    for (const name of ['admin_ai_edit', 'admin_translate']) {
      const { readOnlyHint, openWorldHint, idempotentHint } = hints(name)!;
      assert.deepEqual({ readOnlyHint, openWorldHint, idempotentHint }, { readOnlyHint: true, openWorldHint: true, idempotentHint: false }, name);
    }
    assert.equal(hints('admin_validate_changes')!.readOnlyHint, true, 'a check writes nothing');
    await client.close();
    const doc = await (await service.get('/mcp/admin', { headers: { Authorization: 'Bearer test-admin-token-0123456789' } })).json();
    assert.equal(doc.auth, 'bearer');
  });
});
