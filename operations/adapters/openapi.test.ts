// The OpenAPI document: valid 3.1, exactly the operation list, and true to what the server really sends.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020 from 'ajv/dist/2020.js';
import { operations } from '../contract/index.ts';
import { startTestService, type TestService } from '../testing/service.ts';
import { fillPath } from './routes.ts';

let service: TestService;
let doc: any;
before(async () => {
  service = await startTestService();
  doc = await (await service.get('/openapi.json')).json();
});
after(() => service.stop());

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1.0 document, version 1.0.0', async () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.0.0');
    await SwaggerParser.validate(structuredClone(doc));
  });

  it('describes exactly the operations of the list, each with its parameters and error responses', () => {
    const documented = Object.entries<any>(doc.paths).flatMap(([path, methods]) =>
      Object.entries<any>(methods).filter(([, o]) => o.operationId !== 'health').map(([method, o]) => `${method.toUpperCase()} ${path} ${o.operationId}`),
    );
    assert.deepEqual(documented.sort(), operations.map((op) => `${op.rest.method} ${op.rest.path} ${op.name}`).sort());
    for (const op of operations) {
      const o = doc.paths[op.rest.path][op.rest.method.toLowerCase()];
      assert.equal(o['x-mcp-tool'], op.name);
      for (const code of op.errors) assert.ok(Object.keys(o.responses).length > 1, `${op.name} documents ${code}`);
      const names = (o.parameters ?? []).map((p: any) => p.name);
      for (const field of Object.keys(op.input.shape)) {
        const restName = op.rest.rename?.[field] ?? field;
        if (op.rest.method === 'GET') assert.ok(names.includes(restName), `${op.name} documents ${restName}`);
      }
    }
    const search = doc.paths['/api/v1/search'].get.parameters.find((p: any) => p.name === 'q');
    assert.equal(search.required, true);
  });
});

describe('live responses match the documented schemas', () => {
  it('holds for a success and an error of every operation', async () => {
    const resolved: any = await SwaggerParser.dereference(structuredClone(doc));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const samples: Record<string, Array<{ input: Record<string, unknown>; status: number }>> = {
      get_brief: [{ input: { locale: 'ja' }, status: 200 }, { input: { locale: 'xx' }, status: 400 }],
      list_experience: [{ input: { tag: 'ai', locale: 'fr' }, status: 200 }, { input: { kind: 'x' }, status: 400 }],
      get_entry: [{ input: { slug: 'concierge-copilot', locale: 'zh-hant' }, status: 200 }, { input: { slug: 'missing' }, status: 404 }],
      list_lenses: [{ input: { locale: 'eo' }, status: 200 }, { input: { locale: 'xx' }, status: 400 }],
      search_subject: [{ input: { q: 'ホテル', limit: 5 }, status: 200 }, { input: { limit: 5 }, status: 400 }],
      get_document: [{ input: { name: 'talks', locale: 'es' }, status: 200 }, { input: { name: 'nope' }, status: 404 }],
    };
    for (const op of operations) {
      const cases = samples[op.name];
      assert.ok(cases, `samples cover ${op.name}`);
      for (const { input, status } of cases) {
        const path = fillPath(op.rest.path, input);
        const query = new URLSearchParams(Object.entries(input).filter(([k]) => !op.rest.path.includes(`{${k}}`)).map(([k, v]) => [k, String(v)]));
        const res = await service.get(`${path}?${query}`, { headers: { Accept: 'application/json' } });
        assert.equal(res.status, status, `${op.name} ${JSON.stringify(input)}`);
        const schema = resolved.paths[op.rest.path][op.rest.method.toLowerCase()].responses[status].content['application/json'].schema;
        const validate = ajv.compile(schema);
        const body = await res.json();
        assert.ok(validate(body), `${op.name} ${status}: ${JSON.stringify(validate.errors)}`);
      }
    }
  });
});
