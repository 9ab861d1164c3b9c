// Rate limits: one budget per client IP, from the socket unless TRUST_PROXY, shared between instances
// through a real redis-server when RATE_LIMIT_STORE points at one.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { normaliseIp } from '../adapters/client-ip.server.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai.ts';
import { startTestService, type TestService } from '../../testing/service.ts';

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

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('client IP', () => {
  it('counts IPv4-mapped IPv6 addresses as their IPv4 address', () => {
    assert.equal(normaliseIp('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(normaliseIp('2001:db8::1'), '2001:db8::1');
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
