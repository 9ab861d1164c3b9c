// GET /api/v1: the API's index, for a developer who types its address, made from the operation list.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { offeredOn, operations } from '../contract/index.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { ApiIndexSchema } from './api-index.ts';

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(() => service.stop());

describe('GET /api/v1', () => {
  it('answers an index: the API description, the MCP server, the health check and every public route', async () => {
    const res = await service.get('/api/v1');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^application\/json/);
    const index = ApiIndexSchema.parse(await res.json());
    assert.equal(index.openapi, 'http://vitae.test/openapi.json');
    assert.equal(index.mcp, 'http://vitae.test/mcp');
    assert.equal(index.health, 'http://vitae.test/api/health');
    const expected = operations.filter((op) => op.auth === 'public' && offeredOn(op, 'rest')).map((op) => `${op.rest.method} ${op.rest.path} ${op.name}`);
    assert.deepEqual(
      index.routes.map((route) => `${route.method} ${route.path} ${route.operation}`),
      expected,
    );
    assert.ok(index.routes.some((route) => route.path === '/api/v1/search' && route.mcpTool === 'search_subject'));
    assert.ok(!index.routes.some((route) => route.path.startsWith('/api/admin')), 'no admin route');
    assert.ok(!index.routes.some((route) => route.operation === 'chat' && route.mcpTool), 'chat is no MCP tool');
  });

  it('is read like the other public reads: any origin, an ETag revalidated every time, 304 when unchanged', async () => {
    const res = await service.get('/api/v1', { headers: { Origin: 'https://elsewhere.example' } });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=0, must-revalidate');
    const etag = res.headers.get('etag')!;
    assert.match(etag, /^(W\/)?"api-/);
    const again = await service.get('/api/v1', { headers: { 'If-None-Match': etag } });
    assert.equal(again.status, 304);
    assert.equal((await service.get('/api/v1', { method: 'POST' })).status, 405);
  });

  it('is described in /openapi.json', async () => {
    const doc = await (await service.get('/openapi.json')).json();
    const index = doc.paths['/api/v1'].get;
    assert.equal(index.operationId, 'api_index');
    assert.deepEqual(index.security, []);
    assert.ok(index.responses[200].content['application/json'].schema.properties.routes);
  });
});
