// One door: every surface's entry points reach the operations through `invoke` (or, for an answer kept per build,
// through invoke's memo), each call named by the door it came through. A fixed script of requests, one or more per
// entry point — REST (a read, a streamed chat, an admin call), the CLI (a process over REST), MCP (public and admin),
// a site page, a console page, the agent's tools — is run against one service whose layer is spied on; the calls seen
// per door must be exactly the operations each request runs, and no call may arrive without its door.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai.ts';
import { startTestService, type TestService } from './service.ts';

const TOKEN = 'one-door-admin-token-0123456789abcdef';
const run = promisify(execFile);

describe('one door', () => {
  let model: FakeOpenAI;
  let service: TestService;
  const seen: Array<{ door: string; operation: string; via: 'invoke' | 'memo' }> = [];

  before(async () => {
    model = await startFakeOpenAI();
    service = await startTestService({ ADMIN_TOKEN: TOKEN, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'sk-test' }, { site: true });
    const { layer } = service;
    const invoke = layer.invoke.bind(layer);
    layer.invoke = (op, raw, ctx, options) => {
      seen.push({ door: ctx.door ?? '(none)', operation: op.name, via: 'invoke' });
      return invoke(op, raw, ctx, options);
    };
    const get = layer.memo.get.bind(layer.memo);
    layer.memo.get = ((branch, key, door) => {
      const kept = get(branch, key, door);
      // A kept MCP answer is found by its method and params: named here by the method. A read without a door is a
      // surface's own state (the MCP server's name), not an answer: not a call.
      if (kept !== undefined && door) seen.push({ door, operation: key.split('\0')[1] ?? key, via: 'memo' });
      return kept;
    }) as typeof layer.memo.get;
  });
  after(async () => {
    await service?.stop();
    await model?.close();
  });

  /** The calls one request made, as `door operation` lines. */
  async function callsOf(request: () => Promise<unknown>): Promise<string[]> {
    seen.length = 0;
    await request();
    return seen.map(({ door, operation, via }) => `${door} ${operation}${via === 'memo' ? ' (kept)' : ''}`);
  }

  const mcpClient = async (path: string, token?: string) => {
    const client = new Client({ name: 'one-door', version: '1.0.0' });
    const requestInit = token ? { headers: { Authorization: `Bearer ${token}` } } : undefined;
    await client.connect(new StreamableHTTPClientTransport(new URL(path, service.url), { requestInit }));
    return client;
  };

  it('REST: a read, the same read again (kept by invoke), a streamed chat, an admin read', async () => {
    const read = () => service.get('/api/v1/entries/concierge-copilot').then((res) => res.text());
    assert.deepEqual(await callsOf(read), ['rest get_entry']);
    assert.deepEqual(await callsOf(read), ['rest get_entry']);
    model.script({ text: 'An answer.' });
    const chat = () =>
      service
        .get('/api/chat', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ messages: [{ role: 'user', content: 'Hi' }] }),
        })
        .then((res) => res.text());
    assert.deepEqual(await callsOf(chat), ['rest chat']);
    const admin = () => service.get('/api/admin/deploys?branch=dev', { headers: { Authorization: `Bearer ${TOKEN}` } }).then((res) => res.text());
    assert.deepEqual(await callsOf(admin), ['rest admin_deploy_status']);
  });

  it('the agent: a chat whose model asks for a tool runs it through invoke as the agent', async () => {
    model.script({ toolCalls: [{ name: 'search_subject', arguments: { query: 'hotel guest assistant' } }] }, { text: 'Found it.' });
    const calls = await callsOf(() =>
      service
        .get('/api/chat', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ messages: [{ role: 'user', content: 'Hotels?' }] }),
        })
        .then((res) => res.text()),
    );
    assert.deepEqual(calls, ['rest chat', 'agent search_subject']);
  });

  it('the CLI: a process that calls the REST API', async () => {
    const calls = await callsOf(() =>
      run(process.execPath, ['cli/vitae.js', 'get', 'concierge-copilot', '--json'], { env: { ...process.env, SITE_URL: service.url } }),
    );
    assert.deepEqual(calls, ['rest get_entry']);
  });

  it('MCP: a public tool (then kept), resources read through their operations, an admin tool', async () => {
    const client = await mcpClient('/mcp');
    try {
      const call = () => client.callTool({ name: 'list_lenses', arguments: {} });
      // The server's own name is kept per build (read with get_site by an earlier request); the tool runs through invoke.
      assert.deepEqual(await callsOf(call), ['mcp list_lenses']);
      assert.deepEqual(await callsOf(call), ['mcp tools/call (kept)']);
      const resource = await callsOf(() => client.readResource({ uri: 'vitae://brief?locale=fr' }));
      assert.ok(resource.includes('mcp get_brief'), resource.join(', '));
      const lens = await callsOf(() => client.readResource({ uri: 'vitae://lenses/head-of-ai?locale=fr' }));
      assert.ok(lens.includes('mcp get_lens'), lens.join(', '));
    } finally {
      await client.close();
    }
    const admin = await mcpClient('/mcp/admin', TOKEN);
    try {
      const calls = await callsOf(() => admin.callTool({ name: 'admin_deploy_status', arguments: { branch: 'dev' } }));
      assert.deepEqual(calls, ['mcp admin_deploy_status']);
    } finally {
      await admin.close();
    }
  });

  it('MCP: the server’s own name is read once per build, not per call: calls that are not kept cost no get_site', async () => {
    const client = await mcpClient('/mcp'); // its initialize reads nothing new either: the name is kept for this build
    try {
      const calls = await callsOf(async () => {
        for (let i = 0; i < 5; i++) await client.callTool({ name: 'search_subject', arguments: { query: `hotel guest ${i}` } });
        await service.get('/mcp').then((res) => res.text()); // the discovery document
        await service.get('/mcp/server-card').then((res) => res.text());
      });
      assert.deepEqual(calls, Array(5).fill('mcp search_subject'));
    } finally {
      await client.close();
    }
  });

  it('the site and the console: page loaders run operations through invoke as the site', async () => {
    const page = await callsOf(() => service.get(`/fr/entries/concierge-copilot?door=${Date.now()}`).then((res) => res.text()));
    assert.ok(page.length > 0 && page.every((line) => line.startsWith('site ')), page.join(', '));
    assert.ok(page.includes('site get_entry'), page.join(', '));
    const login = await service.get('/admin/login', {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: new URL(service.url).origin },
      body: new URLSearchParams({ token: TOKEN }).toString(),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    assert.ok(cookie, `signed in (${login.status})`);
    const publish = await callsOf(() => service.get('/admin/publish', { headers: { Cookie: cookie } }).then((res) => res.text()));
    assert.ok(publish.includes('site admin_deploy_status') && publish.includes('site admin_compare'), publish.join(', '));
  });

  it('never sees a call without its door', () => {
    assert.ok(!seen.some((call) => call.door === '(none)'));
  });
});
