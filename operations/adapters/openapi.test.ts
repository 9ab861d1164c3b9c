// The OpenAPI document: valid 3.1, exactly the operation list, and true to what the server really sends.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { offeredOn, operations } from '../contract/index.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { requestFor } from './client.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai.ts';

/** A 2×2 PNG and an SVG with a script, base64-encoded: an upload taken and one refused. */
const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWMwTjtjnHaGAUIBACS2BZUFBQd/AAAAAElFTkSuQmCC';
const SCRIPTED_SVG = 'PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciPjxzY3JpcHQ+YWxlcnQoMSk8L3NjcmlwdD48L3N2Zz4=';

const TOKEN = 'openapi-test-token-0123456789';
let service: TestService;
let model: FakeOpenAI;
let doc: any;
before(async () => {
  model = await startFakeOpenAI();
  service = await startTestService({ ADMIN_TOKEN: TOKEN, OPENAI_BASE_URL: model.url });
  doc = await (await service.get('/openapi.json')).json();
});
after(async () => {
  await service.stop();
  await model.close();
});

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1.0 document, version 1.0.0', async () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.0.0');
    await SwaggerParser.validate(structuredClone(doc));
  });

  it('says who may call each operation, describes each one, and names its licence and contact (what API linters ask for)', () => {
    assert.equal(doc.info.license.identifier, 'MIT');
    assert.ok(doc.info.contact.url.startsWith('http'));
    for (const op of operations) {
      const documented = doc.paths[op.rest.path][op.rest.method.toLowerCase()];
      assert.deepEqual(documented.security, op.auth === 'admin' ? [{ bearerAuth: [] }] : [], op.name);
      assert.ok(documented.description?.length > 40, `${op.name} has a description`);
      assert.ok(
        Object.keys(documented.responses).some((status) => status.startsWith('4')),
        `${op.name} documents a 4xx`,
      );
    }
  });

  it('shows the contract’s valid examples on parameters and request bodies', () => {
    const getEntry = doc.paths['/api/v1/entries/{slug}'].get;
    assert.deepEqual(getEntry.parameters.find((p: any) => p.name === 'slug').examples.example1, {
      summary: 'One project in Spanish',
      value: 'concierge-copilot',
    });
    const search = doc.paths['/api/v1/search'].get.parameters.find((p: any) => p.name === 'q');
    assert.equal(search.examples.example1.value, 'ホテル');
    const ask = doc.paths['/api/v1/ask'].post.requestBody.content['application/json'];
    assert.deepEqual(ask.examples.example1.value, { question: 'Which languages does Noa speak?', locale: 'fr' });
  });

  it('describes exactly the operations of the list, each with its parameters and error responses', () => {
    const documented = Object.entries<any>(doc.paths).flatMap(([path, methods]) =>
      Object.entries<any>(methods)
        .filter(([, o]) => !o.tags.includes('service'))
        .map(([method, o]) => `${method.toUpperCase()} ${path} ${o.operationId}`),
    );
    assert.deepEqual(documented.sort(), operations.map((op) => `${op.rest.method} ${op.rest.path} ${op.name}`).sort());
    for (const op of operations) {
      const o = doc.paths[op.rest.path][op.rest.method.toLowerCase()];
      assert.equal(o['x-mcp-tool'], offeredOn(op, 'mcp') ? op.name : undefined, op.name);
      assert.equal(o['x-cli'], offeredOn(op, 'cli') ? `vitae ${op.cli}` : undefined, op.name);
      for (const code of op.errors) assert.ok(Object.keys(o.responses).length > 1, `${op.name} documents ${code}`);
      const names = (o.parameters ?? []).map((p: any) => p.name);
      for (const field of Object.keys(op.input.shape)) {
        const restName = op.rest.rename?.[field] ?? field;
        if (op.rest.method === 'GET') assert.ok(names.includes(restName), `${op.name} documents ${restName}`);
      }
    }
    const search = doc.paths['/api/v1/search'].get.parameters.find((p: any) => p.name === 'q');
    assert.equal(search.required, true);
    // A locale is taken in any case, but the schema shows the canonical codes and the default.
    const locale = doc.paths['/api/v1/entries/{slug}'].get.parameters.find((p: any) => p.name === 'locale');
    assert.deepEqual(locale.schema.enum, ['en', 'zh', 'zh-hant', 'ja', 'fr', 'es', 'eo']);
    assert.equal(locale.schema.default, 'en');
    // The one name REST takes it by (the API answers `?query=` as a missing q).
    assert.deepEqual(doc.paths['/api/v1/search'].get.parameters.map((p: any) => p.name).sort(), ['limit', 'locale', 'q']);
  });

  it('describes the chat and transcription as operations: their bodies, the streamed text answer and each error they declare', () => {
    const chat = doc.paths['/api/chat'].post;
    const transcribe = doc.paths['/api/transcribe'].post;
    for (const [name, o] of [
      ['chat', chat],
      ['transcribe', transcribe],
    ] as const) {
      const op = operations.find((x) => x.name === name)!;
      assert.equal(o.operationId, name);
      assert.equal(o['x-mcp-tool'], undefined, `${name} is not an MCP tool`);
      assert.equal(o['x-cli'], undefined, `${name} is not a CLI command`);
      for (const code of [...op.errors, 'internal']) assert.ok(JSON.stringify(o.responses).includes(`\`${code}\``), `${name} documents ${code}`);
      assert.deepEqual(Object.keys(o.responses).sort(), ['200', '400', '413', '415', '429', '500', '503']);
      assert.equal(o.responses[200].headers['RateLimit-Policy'].schema.const, '10;w=60');
    }
    assert.deepEqual(chat.requestBody.content['application/json'].schema.required, ['messages']);
    assert.deepEqual(Object.keys(chat.requestBody.content['application/json'].schema.properties).sort(), ['events', 'locale', 'messages']);
    const streamed = chat.responses[200].content;
    assert.deepEqual(Object.keys(streamed), ['text/plain']);
    assert.match(streamed['text/plain'].schema.description, /U\+001E/);
    assert.deepEqual(
      streamed['text/plain']['x-status-line'].oneOf.map((line: any) => line.properties.type.const),
      ['tool', 'tool-result', 'error', 'done'],
    );
    assert.deepEqual(transcribe.requestBody.content['application/json'].schema.required, ['audio']);
    assert.equal(transcribe.responses[200].content['application/json'].schema.$ref, '#/components/schemas/Transcript');
  });
});

describe('live responses match the documented schemas', () => {
  it('holds for a success and an error of every operation', async () => {
    const resolved: any = await SwaggerParser.dereference(structuredClone(doc));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv); // what the document says of a string's format (uri, date-time, email) and an integer's size is checked too
    const brief = 'content/brief.md';
    const briefText = (await service.services.repo.readFile('main', brief)).content;
    const samples: Record<string, Array<{ input: Record<string, unknown>; status: number }>> = {
      get_brief: [
        { input: { locale: 'ja' }, status: 200 },
        { input: { locale: 'xx' }, status: 400 },
      ],
      list_experience: [
        { input: { tag: 'ai', locale: 'fr' }, status: 200 },
        { input: { kind: 'x' }, status: 400 },
      ],
      get_entry: [
        { input: { slug: 'concierge-copilot', locale: 'zh-hant' }, status: 200 },
        { input: { slug: 'missing' }, status: 404 },
      ],
      list_lenses: [
        { input: { locale: 'eo' }, status: 200 },
        { input: { locale: 'xx' }, status: 400 },
      ],
      get_lens: [
        { input: { id: 'hospitality', locale: 'es' }, status: 200 },
        { input: { id: 'astronaut' }, status: 404 },
      ],
      search_subject: [
        { input: { query: 'ホテル', limit: 5 }, status: 200 },
        { input: { limit: 5 }, status: 400 },
      ],
      get_document: [
        { input: { name: 'talks', locale: 'es' }, status: 200 },
        { input: { name: 'nope' }, status: 404 },
      ],
      get_site: [
        { input: { locale: 'ja' }, status: 200 },
        { input: { locale: 'xx' }, status: 400 },
      ],
      ask_subject: [
        { input: { question: 'Where is Noa based?' }, status: 200 },
        { input: { question: '' }, status: 400 },
      ],
      chat: [
        { input: { messages: [{ role: 'user', content: 'Where is Noa based?' }], events: true }, status: 200 },
        { input: { messages: [] }, status: 400 },
      ],
      transcribe: [
        { input: { audio: Buffer.from('RIFF fake audio').toString('base64') }, status: 200 },
        { input: { audio: 'not base64!!' }, status: 400 },
      ],
      admin_schema: [{ input: {}, status: 200 }],
      admin_list_files: [
        { input: { dir: 'content/lenses' }, status: 200 },
        { input: { dir: '../etc' }, status: 403 },
      ],
      admin_read_file: [
        { input: { slug: 'python' }, status: 200 },
        { input: { path: 'content/nope.md' }, status: 404 },
      ],
      admin_validate: [
        { input: { path: brief, content: 'no front matter' }, status: 200 },
        { input: { path: '.git/config', content: 'x' }, status: 403 },
      ],
      admin_write_file: [
        { input: { path: brief, content: briefText + '\nUpdated.\n', message: 'Touch the brief', branch: 'dev' }, status: 200 },
        { input: { path: brief, content: 'broken', message: 'x', branch: 'dev' }, status: 422 },
      ],
      admin_upload_media: [
        { input: { path: 'content/media/sample.png', contentBase64: TINY_PNG, message: 'Add an image', branch: 'dev' }, status: 200 },
        { input: { path: 'content/media/sample.png', contentBase64: SCRIPTED_SVG, message: 'Add an SVG', branch: 'dev' }, status: 415 },
      ],
      admin_commit_changes: [
        { input: { changes: [{ path: brief, content: briefText }], message: 'Restore the brief', branch: 'dev' }, status: 200 },
        { input: { changes: [], message: 'x' }, status: 400 },
      ],
      admin_validate_changes: [
        { input: { changes: [{ path: 'content/skills/python.md', delete: true }], branch: 'dev' }, status: 200 },
        { input: { changes: [{ path: brief, content: briefText, sha: 'b'.repeat(40) }] }, status: 409 },
      ],
      match_role: [
        { input: { jobDescription: '- Led an engineering team\n- Speaks Japanese', locale: 'fr' }, status: 200 },
        { input: { jobDescription: ' ' }, status: 400 },
      ],
      admin_translate: [
        { input: { path: brief, locales: ['fr'] }, status: 200 },
        { input: { path: 'content/site.json' }, status: 400 },
      ],
      admin_translation: [
        { input: { path: 'content/i18n/ja/brief.md' }, status: 200 },
        { input: { path: 'content/i18n/ja/skills/nothing.md' }, status: 404 },
      ],
      admin_ai_edit: [
        { input: { path: brief, instruction: 'Keep it as it is.' }, status: 200 },
        { input: { path: brief, slug: 'x', instruction: 'x' }, status: 400 },
      ],
      admin_delete_file: [
        { input: { path: 'content/skills/photography.md', message: 'x', branch: 'dev' }, status: 422 },
        { input: { path: 'content/skills/none.md', message: 'x' }, status: 404 },
      ],
      admin_deploy_status: [
        { input: { branch: 'dev' }, status: 200 },
        { input: { branch: 'feature' }, status: 400 },
      ],
      admin_promote: [{ input: {}, status: 200 }],
      admin_history: [
        { input: { branch: 'dev', path: brief, limit: 3 }, status: 200 },
        { input: { path: '/etc/passwd' }, status: 403 },
      ],
      admin_compare: [
        { input: {}, status: 200 },
        { input: { base: 'dev', head: 'dev' }, status: 400 },
      ],
      admin_preview: [
        { input: { path: brief, content: briefText, locale: 'fr' }, status: 200 },
        { input: { path: '/etc/passwd', content: 'x' }, status: 403 },
      ],
      whoami: [{ input: {}, status: 200 }],
      admin_list_editors: [{ input: {}, status: 200 }],
      admin_add_editor: [
        { input: { name: 'Ada Coach', email: 'ada@example.org', role: 'editor' }, status: 200 },
        { input: { name: 'Ada Coach', email: 'not an address' }, status: 400 },
      ],
      admin_update_editor: [
        { input: { id: 'ada-coach', role: 'publisher', newToken: true }, status: 200 },
        { input: { id: 'nobody-here', role: 'editor' }, status: 404 },
      ],
      admin_revoke_editor: [
        { input: { id: 'ada-coach' }, status: 200 },
        { input: { id: 'owner' }, status: 400 },
      ],
      admin_audit: [
        { input: { limit: 5 }, status: 200 },
        { input: { limit: 1000 }, status: 400 },
      ],
    };
    model.fallback = (body: any) => ({ text: body.messages.some((m: any) => /Keep it as it is/.test(String(m.content))) ? briefText : 'Lisbon.' });
    for (const op of operations) {
      const cases = samples[op.name];
      assert.ok(cases, `samples cover ${op.name}`);
      for (const { input, status } of cases) {
        const request = requestFor(op, input, { baseUrl: service.url, token: TOKEN });
        const res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
        const content = resolved.paths[op.rest.path][op.rest.method.toLowerCase()].responses[status].content;
        if (status === 200 && op.rest.stream) {
          // A streamed text answer: its media type, and each status line is one the document describes.
          assert.equal(res.status, 200, op.name);
          assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8', op.name);
          const line = ajv.compile(content['text/plain']['x-status-line']);
          for (const piece of (await res.text()).split('\u001e').slice(1)) {
            const event = JSON.parse(piece.slice(0, piece.indexOf('\n')));
            assert.ok(line(event), `${op.name} status line ${JSON.stringify(event)}: ${JSON.stringify(line.errors)}`);
          }
          continue;
        }
        const body = await res.json();
        assert.equal(res.status, status, `${op.name} ${JSON.stringify(input).slice(0, 100)}: ${JSON.stringify(body).slice(0, 300)}`);
        const schema = content['application/json'].schema;
        const validate = ajv.compile(schema);
        assert.ok(validate(body), `${op.name} ${status}: ${JSON.stringify(validate.errors)}`);
      }
    }
  });
});
