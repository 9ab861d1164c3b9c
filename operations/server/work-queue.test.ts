// The service-wide queue of anonymous work: a few at a time, in the order asked, a bounded wait, then 503 — as a
// unit, and through HTTP: a flood of pages and searches nobody asked for before is answered in turn or told to come
// back with the site's own page (in the page's language) or the JSON error body, and a kept page never waits.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AppError } from '../contract/errors.ts';
import { createWorkQueue } from './work-queue.server.ts';
import { startTestService, type TestService } from '../../testing/service.ts';

describe('the work queue', () => {
  it('runs at most `concurrency` at once, in the order asked, and refuses once `waiting` are queued', async () => {
    const queue = createWorkQueue({ concurrency: 2, waiting: 3 });
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const releases: Array<() => void> = [];
    const job = (i: number) =>
      queue.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(i);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return i;
      });
    const accepted = [0, 1, 2, 3, 4].map(job);
    await assert.rejects(job(5), (error: { code?: string; status?: number; headers?: Record<string, string> }) => {
      assert.equal(error.code, 'unavailable');
      assert.equal(error.status, 503);
      assert.equal(error.headers?.['Retry-After'], '1');
      return true;
    });
    assert.deepEqual(queue.figures(), { running: 2, waiting: 3, concurrency: 2, addresses: 0 });
    while (order.length < 5 || releases.length) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    }
    assert.deepEqual(await Promise.all(accepted), [0, 1, 2, 3, 4]);
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
    assert.equal(most, 2);
    assert.deepEqual(queue.figures(), { running: 0, waiting: 0, concurrency: 2, addresses: 0 });
  });

  it('lets one client address hold `perAddress` places once the queue is half full, an IPv6 client by its /64; the next is 429 and others still come in', async () => {
    const queue = createWorkQueue({ concurrency: 1, waiting: 2, perAddress: 2 });
    const releases: Array<() => void> = [];
    const job = (address: string) => queue.run(() => new Promise<string>((resolve) => releases.push(() => resolve(address))), address);
    const held = [job('2001:db8:1:2::1'), job('2001:db8:1:2::ffff')];
    await assert.rejects(job('2001:db8:1:2:abcd::9'), (error: AppError) => {
      assert.deepEqual([error.code, error.status, error.headers?.['Retry-After']], ['rate_limited', 429, '1']);
      assert.equal(error.toBody().retryAfter, 1, 'the body says the wait too, as every 429 does');
      return true;
    });
    const other = job('2001:db8:1:3::1'); // the next /64: another client
    assert.equal(queue.figures().addresses, 2);
    while (releases.length < 3 || releases.length) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
      if (!releases.length && queue.figures().running === 0) break;
    }
    assert.deepEqual(await Promise.all([...held, other]), ['2001:db8:1:2::1', '2001:db8:1:2::ffff', '2001:db8:1:3::1']);
    assert.equal(queue.figures().addresses, 0);
    assert.equal(await queue.run(async () => 'again', '2001:db8:1:2::1'), 'again', 'the places are given back');
  });

  it('frees the place of work that failed', async () => {
    const queue = createWorkQueue({ concurrency: 1, waiting: 0 });
    await assert.rejects(
      queue.run(() => Promise.reject(new Error('render failed'))),
      /render failed/,
    );
    assert.equal(await queue.run(async () => 'next'), 'next');
  });
});

describe('anonymous work over HTTP', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({}, { site: true, work: { concurrency: 1, waiting: 1, perAddress: 64 } });
  });
  after(() => service.stop());

  it('answers a flood of pages not kept in turn, or with the site’s own busy page in the page’s language', async () => {
    const kept = await service.get('/fr/');
    assert.equal(kept.status, 200);
    await kept.text();
    const answers = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const res = await service.get(`/fr/search?q=flood${i}`);
        return { status: res.status, retry: res.headers.get('retry-after'), type: res.headers.get('content-type'), text: await res.text() };
      }),
    );
    const busy = answers.filter((a) => a.status === 503);
    assert.ok(busy.length > 0 && answers.some((a) => a.status === 200), answers.map((a) => a.status).join(' '));
    for (const page of busy) {
      assert.equal(page.retry, '1');
      assert.match(page.type ?? '', /^text\/html/);
      assert.match(page.text, /<html lang="fr"/);
      assert.match(page.text, /503/);
    }
    // A page kept is answered from memory, never queued, while the flood goes on.
    const flood = Promise.all(Array.from({ length: 12 }, (_, i) => service.get(`/search?q=again${i}`).then((r) => r.text())));
    const again = await service.get('/fr/');
    assert.equal(again.status, 200);
    await again.text();
    await flood;
  });

  it('answers a flood of first searches through the API in turn, or 503 with the JSON error body', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const res = await service.get(`/api/v1/search?q=api-flood-${i}`);
        return { status: res.status, retry: res.headers.get('retry-after'), body: (await res.json()) as { code?: string } };
      }),
    );
    const busy = answers.filter((a) => a.status === 503);
    assert.ok(busy.length > 0 && answers.some((a) => a.status === 200), answers.map((a) => a.status).join(' '));
    for (const answer of busy) assert.deepEqual([answer.body.code, answer.retry], ['unavailable', '1']);
  });
});

describe('one client’s share of the work over HTTP', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({ TRUST_PROXY: 'true' }, { site: true, work: { concurrency: 1, waiting: 8, perAddress: 2 } });
  });
  after(() => service.stop());
  const from = (address: string, path: string) => service.get(path, { headers: { 'X-Forwarded-For': address } });

  it('answers a client over its share 429 with the site’s own page, while another client’s first pages come in', async () => {
    const flood = Array.from({ length: 12 }, async (_, i) => {
      const res = await from('198.51.100.77', `/es/search?q=share${i}`);
      return { status: res.status, retry: res.headers.get('retry-after'), text: await res.text() };
    });
    const others = Array.from({ length: 2 }, async (_, i) => (await from('198.51.100.78', `/search?q=other${i}`)).status);
    const [answers, otherStatuses] = await Promise.all([Promise.all(flood), Promise.all(others)]);
    assert.deepEqual(otherStatuses, [200, 200]);
    const refused = answers.filter((a) => a.status === 429);
    assert.ok(refused.length > 0 && answers.some((a) => a.status === 200), answers.map((a) => a.status).join(' '));
    assert.ok(
      answers.every((a) => a.status === 200 || a.status === 429),
      answers.map((a) => a.status).join(' '),
    );
    for (const page of refused) {
      assert.equal(page.retry, '1');
      assert.match(page.text, /<html lang="es"/);
      assert.match(page.text, /429/);
    }
    // The API answers the same refusal with its error body.
    const api = await Promise.all(Array.from({ length: 8 }, (_, i) => from('198.51.100.79', `/api/v1/search?q=share-api-${i}`)));
    const bodies = await Promise.all(api.map(async (res) => ({ status: res.status, code: ((await res.json()) as { code?: string }).code })));
    assert.ok(
      bodies.some((b) => b.status === 429 && b.code === 'rate_limited'),
      JSON.stringify(bodies),
    );
  });
});
