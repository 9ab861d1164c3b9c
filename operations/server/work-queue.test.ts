// The service-wide queue of anonymous work: a few at a time, in the order asked, a bounded wait, then 503 — as a
// unit, and through HTTP: a flood of pages and searches nobody asked for before is answered in turn or told to come
// back with the site's own page (in the page's language) or the JSON error body, and a kept page never waits.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
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
    assert.deepEqual(queue.figures(), { running: 2, waiting: 3, concurrency: 2 });
    while (order.length < 5 || releases.length) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    }
    assert.deepEqual(await Promise.all(accepted), [0, 1, 2, 3, 4]);
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
    assert.equal(most, 2);
    assert.deepEqual(queue.figures(), { running: 0, waiting: 0, concurrency: 2 });
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
    service = await startTestService({}, { site: true, work: { concurrency: 1, waiting: 1 } });
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
