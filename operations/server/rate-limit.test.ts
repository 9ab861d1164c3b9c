// Rate limits: one budget per client address (an IPv6 client by its /64), from the socket unless TRUST_PROXY,
// shared between instances through a real redis-server when RATE_LIMIT_STORE points at one.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { normaliseIp } from '../adapters/client-ip.server.ts';
import { addressGroup } from './address-group.server.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { freePort } from '../../testing/server-process.ts';

let model: FakeOpenAI;
before(async () => {
  model = await startFakeOpenAI();
  model.fallback = { text: 'ok' };
});
after(() => model.close());

const ask = (service: TestService, headers: Record<string, string> = {}) =>
  service.get('/api/v1/ask', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ question: 'Where is Noa based?' }),
  });

describe('client IP', () => {
  it('counts IPv4-mapped IPv6 addresses as their IPv4 address', () => {
    assert.equal(normaliseIp('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(normaliseIp('2001:db8::1'), '2001:db8::1');
  });

  it('counts an IPv6 address by its /64 and an IPv4 address by itself, however it is written', () => {
    assert.equal(addressGroup('203.0.113.7'), '203.0.113.7');
    for (const ip of [
      '2001:db8:1:2::5',
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:DB8:1:2:0:0:0:1',
      '2001:db8:1:2::1%eth0',
      '2001:db8:1:2::198.51.100.1',
    ])
      assert.equal(addressGroup(ip), '2001:db8:1:2::/64', ip);
    assert.equal(addressGroup('2001:db8:1:3::5'), '2001:db8:1:3::/64');
    assert.equal(addressGroup('::ffff:cb00:7107'), '203.0.113.7', 'IPv4-mapped, in hexadecimal');
    assert.equal(addressGroup('unknown'), 'unknown');
  });

  it('gives the IPv6 addresses of one /64 one ask and one chat budget, and another /64 its own', async () => {
    const service = await startTestService({ OPENAI_BASE_URL: model.url, TRUST_PROXY: '1' });
    const chat = (ip: string) =>
      service.get('/api/chat', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'Where is Noa based?' }] }),
      });
    try {
      // Twenty addresses of one /64, each asking once: the 20 asks a minute of one client.
      for (let i = 1; i <= 20; i++) assert.equal((await ask(service, { 'X-Forwarded-For': `2001:db8:77:1::${i.toString(16)}` })).status, 200);
      assert.equal((await ask(service, { 'X-Forwarded-For': '2001:db8:77:1:ffff:ffff:ffff:ffff' })).status, 429, 'a 21st address of the /64');
      assert.equal((await ask(service, { 'X-Forwarded-For': '2001:db8:77:2::1' })).status, 200, 'the next /64 is another client');
      for (let i = 1; i <= 10; i++) {
        const answer = await chat(`2001:db8:78:1:${i.toString(16)}::1`);
        assert.equal(answer.status, 200);
        await answer.text();
      }
      const limited = await chat('2001:db8:78:1:abcd::1');
      assert.equal(limited.status, 429);
      await limited.text();
      const other = await chat('2001:db8:78:2::1');
      assert.equal(other.status, 200);
      await other.text();
    } finally {
      await service.stop();
    }
  });

  it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
    const service = await startTestService({ OPENAI_BASE_URL: model.url });
    try {
      for (let i = 0; i < 20; i++) assert.equal((await ask(service, { 'X-Forwarded-For': `198.51.100.${i}` })).status, 200);
      const limited = await ask(service, { 'X-Forwarded-For': '198.51.100.99' });
      assert.equal(limited.status, 429, 'a forged header does not buy a new budget');
    } finally {
      await service.stop();
    }
  });
});

describe('a spent budget', () => {
  it('is refused in one shape by ask, chat and match_role, JSON lines or not: Retry-After and retryAfter agree, RateLimit says none remain', async () => {
    const service = await startTestService({ OPENAI_BASE_URL: model.url, TRUST_PROXY: '1' });
    const job = 'Must have: five years of Python in production.\nNice to have: Kubernetes.';
    const calls: Array<[string, string, unknown, Record<string, string>]> = [
      ['ask', '/api/v1/ask', { question: 'Where is Noa based?' }, {}],
      ['chat', '/api/chat', { messages: [{ role: 'user', content: 'Where is Noa based?' }] }, {}],
      ['match_role', '/api/v1/match', { jobDescription: job }, {}],
      ['match_role as JSON lines', '/api/v1/match', { jobDescription: job }, { Accept: 'application/x-ndjson' }],
    ];
    try {
      const shapes = [];
      for (const [i, [name, path, body, headers]] of calls.entries()) {
        const post = () =>
          service.get(path, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.51.100.${i + 1}`, ...headers },
            body: JSON.stringify(body),
          });
        let res = await post();
        for (let n = 0; n < 25 && res.status !== 429; n++) {
          await res.text();
          res = await post();
        }
        assert.equal(res.status, 429, name);
        const refusal = await res.json();
        assert.deepEqual(Object.keys(refusal).sort(), ['code', 'message', 'retryAfter'], name);
        assert.equal(refusal.code, 'rate_limited', name);
        assert.equal(res.headers.get('retry-after'), String(refusal.retryAfter), `${name}: the header and the body say one wait`);
        assert.match(res.headers.get('ratelimit') ?? '', /^limit=\d+, remaining=0, reset=\d+$/, name);
        assert.match(res.headers.get('ratelimit-policy') ?? '', /^\d+;w=60$/, name);
        assert.ok(![...res.headers.keys()].some((header) => header.startsWith('x-ratelimit')), `${name}: no X-RateLimit-* beside RateLimit`);
        shapes.push({
          headers: [...res.headers.keys()].filter((header) => /rate|retry|content-type|expose|cache/.test(header)).sort(),
          type: res.headers.get('content-type'),
          exposed: res.headers.get('access-control-expose-headers'),
          message: refusal.message.replace(/\d+/g, 'N'),
        });
      }
      for (const [i, shape] of shapes.entries()) assert.deepEqual(shape, shapes[0], `${calls[i]![0]} is refused as ask is`);
    } finally {
      await service.stop();
    }
  });
});

describe('RATE_LIMIT_STORE=redis://', () => {
  let redis: ChildProcess;
  let port: number;
  before(async () => {
    port = await freePort();
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((resolve) => {
        const probe = connect(port, '127.0.0.1', () => {
          probe.end();
          resolve(true);
        });
        probe.on('error', () => resolve(false));
      });
      if (up) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('redis-server did not start');
  });
  after(() => redis.kill());

  it('shares one ask budget between two instances', async () => {
    const store = `redis://127.0.0.1:${port}`;
    const a = await startTestService({ OPENAI_BASE_URL: model.url, RATE_LIMIT_STORE: store });
    const b = await startTestService({ OPENAI_BASE_URL: model.url, RATE_LIMIT_STORE: store });
    try {
      for (let i = 0; i < 10; i++) assert.equal((await ask(a)).status, 200);
      for (let i = 0; i < 10; i++) assert.equal((await ask(b)).status, 200);
      const limited = await ask(a);
      assert.equal(limited.status, 429, 'the 21st call on either instance is refused');
      assert.match(limited.headers.get('ratelimit')!, /remaining=0/);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
