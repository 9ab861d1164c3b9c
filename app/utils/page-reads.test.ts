// A page render reads through the operations, each read once: the root loader and the page's loaders share a
// request's pure reads, so the site's identity (get_site), which both need, is asked of the pipeline once. Counted
// by a spy on the pipeline itself (needs the web build, which `npm test` makes first).
import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../testing/service.ts';

let service: TestService;
let calls: Array<{ name: string; input: string }> = [];

before(async () => {
  service = await startTestService({}, { site: true });
  const invoke = service.layer.invoke.bind(service.layer);
  mock.method(service.layer, 'invoke', (...args: Parameters<typeof invoke>) => {
    calls.push({ name: args[0].name, input: JSON.stringify(args[1]) });
    return invoke(...args);
  });
});
after(() => service.stop());

/** The operations one request for `path` runs (a first request: the page cache renders it). */
async function readsOf(path: string): Promise<Array<{ name: string; input: string }>> {
  calls = [];
  const res = await service.get(path);
  assert.equal(res.status, 200, `${path} answered ${res.status}`);
  await res.text();
  return calls;
}

describe('one page render', () => {
  it('runs the reads of an entry page once each: get_site once, where root and page loader both need it', async () => {
    const reads = await readsOf('/entries/concierge-copilot');
    assert.deepEqual(reads.map((r) => r.name).sort(), ['get_brief', 'get_entry', 'get_site', 'list_lenses']);
  });

  for (const path of ['/', '/fr/entries', '/lenses', '/documents', '/entries/concierge-copilot.md', '/resume.json']) {
    it(`asks get_site at most once and no read twice: ${path}`, async () => {
      const reads = await readsOf(path);
      assert.ok(reads.length > 0, 'the page read through the operations');
      assert.ok(reads.filter((r) => r.name === 'get_site').length <= 1, `get_site ran ${reads.filter((r) => r.name === 'get_site').length} times`);
      const asked = reads.map((r) => `${r.name} ${r.input}`);
      assert.deepEqual(
        asked.filter((read, i) => asked.indexOf(read) !== i),
        [],
        'reads asked twice',
      );
    });
  }
});
