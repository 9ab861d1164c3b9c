// Hostile and sloppy input through real HTTP: nesting, bytes that are not UTF-8, wrong content types,
// integers written other than in plain decimal, requests node itself refuses (bad Content-Length, huge
// headers); and what every answer of the service carries: its security headers, compression and ETags.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestService, type TestService } from '../../testing/service.ts';
import { contentGit } from '../../testing/content-git.ts';
import { ErrorBodySchema } from '../contract/shared.ts';

const TOKEN = 'input-suite-token-5f0e1d2c3b4a6978';
const bearer = { Authorization: `Bearer ${TOKEN}` };
let service: TestService;

before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN });
});
after(() => service.stop());

/** A request whose answer must be an error body of the service, strictly as the OpenAPI `Error` schema says. */
async function expectError(res: Response, status: number, code: string) {
  const text = await res.text();
  assert.equal(res.status, status, text);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  const body = JSON.parse(text) as Record<string, unknown>;
  ErrorBodySchema.strict().parse(body);
  assert.equal(body.code, code, text);
  return body as { code: string; message: string; errors?: Array<{ pointer?: string; message: string }> };
}

/** One raw HTTP exchange over a socket, for requests fetch refuses to send. */
function raw(base: string, request: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

const nested = (depth: number) => `{"question":${'['.repeat(depth)}${']'.repeat(depth)}}`;

describe('JSON nesting', () => {
  it('answers 400 (never 500) to a 25 kB deeply nested body, on an operation, the chat and MCP', async () => {
    const deep = nested(12_500);
    assert.ok(deep.length >= 25_000);
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      service.get(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
    const ask = await expectError(await post('/api/v1/ask', deep), 400, 'bad_request');
    assert.match(ask.message, /nests deeper than 64/);
    // The chat is an operation whose body is read like ask's: a bad one is a 400 even without a model (as here).
    await expectError(await post('/api/chat', `{"messages":${'['.repeat(12_500)}${']'.repeat(12_500)}}`), 400, 'bad_request');
    await expectError(await post('/api/admin/validate', deep, bearer), 400, 'bad_request');
    const mcp = await post('/mcp', `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${'{"a":'.repeat(12_500)}1${'}'.repeat(12_500)}}`, {
      Accept: 'application/json, text/event-stream',
    });
    assert.equal(mcp.status, 400);
    const body = (await mcp.json()) as { error: { code: number; message: string } };
    assert.equal(body.error.code, -32700);
    assert.match(body.error.message, /deeper than 64/);
  });

  it('still reads ordinary nesting, and brackets inside strings do not count', async () => {
    const res = await service.get('/api/admin/validate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...bearer },
      body: JSON.stringify({ path: 'content/skills/brackets.md', content: `---\nname: ${'['.repeat(100)}x\ncategory: engineering\n---\nText.\n` }),
    });
    assert.equal(res.status, 200, await res.clone().text());
  });
});

describe('a feature that is not configured (no model, as here)', () => {
  const post = (path: string, body: string) => service.get(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  const turn = (content: string) => ({ role: 'user', content });

  it('checks a chat request first: 400 bad_request for what the SPEC refuses, 503 only for a valid one', async () => {
    const refused: Array<[string, string, RegExp]> = [
      ['no messages', JSON.stringify({ messages: [] }), /messages/],
      ['17 messages', JSON.stringify({ messages: Array.from({ length: 17 }, () => turn('Hi')) }), /16/],
      ['2001 characters', JSON.stringify({ messages: [turn('x'.repeat(2001))] }), /2000|2,000/],
      ['messages not an array', JSON.stringify({ messages: 'x' }), /messages/],
      ['an unknown locale', JSON.stringify({ messages: [turn('Hi')], locale: 'de' }), /locale/],
      ['a body that is not JSON', 'nope', /JSON/],
    ];
    for (const [what, body, says] of refused) {
      const error = await expectError(await post('/api/chat', body), 400, 'bad_request');
      assert.match(`${error.message} ${JSON.stringify(error.errors ?? [])}`, says, what);
    }
    const valid = await expectError(await post('/api/chat', JSON.stringify({ messages: [turn('Where is Noa based?')] })), 503, 'chat_not_configured');
    assert.match(valid.message, /OPENAI_API_KEY/);
  });

  it('checks a transcription request first: 400 without audio, 503 with it', async () => {
    const missing = await expectError(await post('/api/transcribe', '{}'), 400, 'bad_request');
    assert.ok(
      missing.errors?.some((e) => e.pointer === '/audio'),
      JSON.stringify(missing),
    );
    await expectError(await post('/api/transcribe', JSON.stringify({ audio: 'AAAA', mimeType: 'video/mp4' })), 400, 'bad_request');
    await expectError(await post('/api/transcribe', JSON.stringify({ audio: 'AAAA' })), 503, 'transcription_not_configured');
  });
});

describe('UTF-8', () => {
  it('refuses a body that is not valid UTF-8 with a 400 that says so, and commits nothing', async () => {
    const head = contentGit(service.dataDir).head();
    const json = Buffer.from(
      JSON.stringify({ path: 'content/skills/latin1.md', content: '---\nname: Caf__\ncategory: engineering\n---\nText.\n', message: 'm' }),
    );
    const at = json.indexOf('__');
    json[at] = 0xe9; // "é" in Latin-1: not UTF-8
    json[at + 1] = 0x20;
    const res = await service.get('/api/admin/file', { method: 'PUT', headers: { 'Content-Type': 'application/json', ...bearer }, body: json });
    const body = await expectError(res, 400, 'bad_request');
    assert.match(body.message, /UTF-8/);
    assert.equal(contentGit(service.dataDir).head(), head, 'nothing was committed');
    const mcp = await service.get('/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')]),
    });
    assert.equal(mcp.status, 400);
    assert.match(((await mcp.json()) as { error: { message: string } }).error.message, /UTF-8/);
  });
});

describe('Content-Type', () => {
  it('answers 415 unsupported_media_type to a JSON operation sent as text or a form', async () => {
    const body = JSON.stringify({ question: 'Which languages?' });
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await service.get('/api/v1/ask', { method: 'POST', headers: { 'Content-Type': type }, body });
      const error = await expectError(res, 415, 'unsupported_media_type');
      assert.match(error.message, /application\/json/);
    }
    await expectError(
      await service.get('/api/admin/validate', { method: 'POST', headers: { 'Content-Type': 'text/plain', ...bearer }, body: '{}' }),
      415,
      'unsupported_media_type',
    );
    const mcp = await service.get('/mcp', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    assert.equal(mcp.status, 415);
  });

  it('accepts application/json with parameters, +json types, and a body without a Content-Type', async () => {
    const validate = (headers: Record<string, string>) =>
      fetch(service.url + '/api/admin/validate', {
        method: 'POST',
        headers: { ...bearer, ...headers },
        body: new Blob([JSON.stringify({ path: 'content/skills/x.md', content: '---\nname: X\ncategory: engineering\n---\nText.\n' })]),
      });
    for (const type of ['application/json; charset=utf-8', 'application/merge-patch+json'])
      assert.equal((await validate({ 'Content-Type': type })).status, 200, type);
    assert.equal((await validate({})).status, 200, 'no Content-Type');
  });
});

describe('integers in the query', () => {
  it('accepts plain decimal and refuses hex, signs, leading zeros, exponents and spaces, naming the field', async () => {
    assert.equal((await service.get('/api/v1/search?q=hotel&limit=5')).status, 200);
    assert.equal(((await (await service.get('/api/v1/search?q=hotel&limit=10')).json()) as { results: unknown[] }).results.length, 10);
    for (const limit of ['0x10', '+5', '05', '-1', '1e1', '5.0', '%205', '5%20', '']) {
      const body = await expectError(await service.get(`/api/v1/search?q=hotel&limit=${limit}`), 400, 'bad_request');
      assert.deepEqual(
        body.errors?.map((e) => e.pointer),
        ['/limit'],
        `limit=${limit}: ${JSON.stringify(body)}`,
      );
      assert.match(body.message, /limit/);
    }
    const history = await expectError(await service.get('/api/admin/deploys?limit=010', { headers: bearer }), 400, 'bad_request');
    assert.equal(history.errors?.[0]?.pointer, '/limit');
  });
});

describe('requests node refuses', () => {
  it('answers a negative Content-Length with 400 and the JSON error body on API paths', async () => {
    const answer = await raw(service.url, 'POST /api/v1/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: -1\r\n\r\n');
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 400 /);
    assert.match(head, /content-type: application\/json/i);
    assert.match(head, /^x-request-id: [0-9a-f-]{36}$/im, 'an id to find the refusal in the log by');
    const error = ErrorBodySchema.strict().parse(JSON.parse(body));
    assert.equal(error.code, 'bad_request');
  });

  it('answers headers too large with 431 and the JSON error body on /mcp', async () => {
    const answer = await raw(service.url, `GET /mcp HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 431 /);
    assert.equal(ErrorBodySchema.strict().parse(JSON.parse(body)).code, 'request_header_fields_too_large');
  });

  it('answers a site path with an HTML page, not an empty body', async () => {
    const answer = await raw(service.url, 'GET /entries HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n');
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 400 /);
    assert.match(head, /content-type: text\/html/i);
    assert.match(body, /<h1>Bad Request<\/h1>/);
  });
});

describe('headers of the service’s own answers', () => {
  it('sends nosniff, a CSP that runs and frames nothing, and a Referrer-Policy on JSON, Markdown, errors and preflights', async () => {
    const answers = [
      await service.get('/api/v1/entries'),
      await service.get('/api/v1/brief'),
      await service.get('/api/nowhere'),
      await service.get('/openapi.json'),
      await service.get('/mcp'),
      await service.get('/api/v1/entries', { method: 'OPTIONS', headers: { Origin: 'http://a.test', 'Access-Control-Request-Method': 'GET' } }),
    ];
    for (const res of answers) {
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', res.url);
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none';\s*frame-ancestors 'none'/, res.url);
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer', res.url);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', res.url);
    }
  });
});

describe('compression and ETags of API answers', () => {
  const get = (path: string, headers: Record<string, string>) =>
    raw(
      service.url,
      `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')}\r\n`,
    );
  const split = (answer: string) => {
    const at = answer.indexOf('\r\n\r\n');
    return { head: answer.slice(0, at), header: (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(answer.slice(0, at))?.[1]?.trim() };
  };

  it('compresses large JSON with br or gzip as the client prefers, and revalidates with the ETag', async () => {
    const plain = await service.get('/api/v1/entries', { headers: { 'Accept-Encoding': 'identity' } });
    const expected = await plain.text();
    assert.equal(plain.headers.get('content-encoding'), null);
    assert.match(plain.headers.get('vary') ?? '', /Accept-Encoding/);
    for (const [accept, coding] of [
      ['gzip', 'gzip'],
      ['br', 'br'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
    ] as const) {
      const res = await fetchBytes('/api/v1/entries', { 'Accept-Encoding': accept });
      assert.equal(res.headers['content-encoding'], coding, accept);
      const text = (coding === 'br' ? brotliDecompressSync(res.body) : gunzipSync(res.body)).toString('utf8');
      assert.equal(text, expected);
      assert.ok(res.body.length < Buffer.byteLength(expected) / 2, 'it is smaller');
      const etag = String(res.headers.etag);
      assert.ok(etag);
      const again = split(await get('/api/v1/entries', { 'Accept-Encoding': accept, 'If-None-Match': etag }));
      assert.match(again.head, /^HTTP\/1\.1 304 /);
    }
  });

  it('sends /openapi.json compressed with an ETag, and 304 to a matching If-None-Match', async () => {
    const first = await service.get('/openapi.json');
    const etag = first.headers.get('etag');
    assert.ok(etag);
    const again = await service.get('/openapi.json', { headers: { 'If-None-Match': etag } });
    assert.equal(again.status, 304);
    const raw = await fetchBytes('/openapi.json', { 'Accept-Encoding': 'gzip' });
    assert.equal(raw.headers['content-encoding'], 'gzip');
  });
});

/** A GET through node's http client, which hands over the body as sent (fetch decompresses it). */
async function fetchBytes(path: string, headers: Record<string, string>) {
  const { request } = await import('node:http');
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(service.url + path, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}
