// A restart on an unchanged commit loads the build kept under DATA_DIR/builds/ instead of making it again, and
// answers as before, on both sites; a kept file that is corrupt or cut short is built again and replaced.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startTestService, type TestService } from '../../testing/service.ts';

const queries: Array<[string, string?]> = [
  ['hotel guest assistant'],
  ['ホテルの宿泊客向けアシスタント', 'ja'],
  ['临床笔记摘要'],
  ['traduction bénévole espéranto', 'fr'],
  ['incorporación de monederos', 'es'],
  ['hotela gasto', 'eo'],
];

/** What each site answers: its build's commit and time, entries in two locales, and search results. */
async function answers(service: TestService) {
  const out: Record<string, unknown> = {};
  for (const [site, base] of [
    ['main', service.url],
    ['dev', service.devUrl],
  ] as const) {
    const get = async (path: string) => {
      const res = await fetch(base + path);
      assert.equal(res.status, 200, path);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const health = (await get('/api/health')) as { content: { commit: string; builtAt: string } };
    out[site] = {
      content: health.content,
      entries: [await get('/api/v1/entries?limit=100'), await get('/api/v1/entries?limit=100&locale=fr')],
      search: await Promise.all(queries.map(([q, locale]) => get(`/api/v1/search?q=${encodeURIComponent(q)}&limit=5${locale ? `&locale=${locale}` : ''}`))),
    };
  }
  return out as Record<'main' | 'dev', { content: { commit: string; builtAt: string }; entries: unknown; search: unknown[] }>;
}

async function restart(service: TestService): Promise<{ service: TestService; startedAt: string }> {
  await service.close();
  const startedAt = new Date().toISOString();
  return { service: await startTestService({ DATA_DIR: service.dataDir }), startedAt };
}

describe('kept builds across a restart', () => {
  it('loads the kept build of an unchanged commit, answers identically on both sites, and rebuilds a corrupt or truncated file', async () => {
    let service = await startTestService();
    const dataDir = service.dataDir;
    try {
      const first = await answers(service);
      const commit = first.main.content.commit;
      assert.equal(first.dev.content.commit, commit, 'main and dev start at one commit');
      assert.ok((first.main.search as Array<{ results: unknown[] }>)[0]!.results.length > 0, 'search finds something');

      // unchanged commit: the build is loaded (its builtAt is the first start's, before this start began)
      let started;
      ({ service, startedAt: started } = await restart(service));
      const file = join(
        dataDir,
        'builds',
        (await readdir(join(dataDir, 'builds'))).find((n) => n.startsWith(commit))!,
      );
      assert.ok(first.main.content.builtAt < started);
      const loaded = await answers(service);
      assert.deepEqual(loaded, first);

      // a corrupt file: built again (a builtAt after the restart began), the same answers apart from that time
      const whole = await readFile(file);
      const corrupt = Buffer.from(whole);
      corrupt[corrupt.length - 1000]! ^= 0xff;
      await writeFile(file, corrupt);
      ({ service, startedAt: started } = await restart(service));
      const rebuilt = await answers(service);
      assert.ok(rebuilt.main.content.builtAt >= started, 'built again');
      assert.equal(rebuilt.dev.content.builtAt, rebuilt.main.content.builtAt, 'dev shares main’s build of the commit');
      const withoutTime = (a: typeof first) => ({
        main: { ...a.main, content: { ...a.main.content, builtAt: '' } },
        dev: { ...a.dev, content: { ...a.dev.content, builtAt: '' } },
      });
      assert.deepEqual(withoutTime(rebuilt), withoutTime(first));

      // …and the file replaced: the next restart loads it
      ({ service } = await restart(service));
      assert.equal((await answers(service)).main.content.builtAt, rebuilt.main.content.builtAt);

      // a truncated file: built again
      await truncate(file, Math.floor((await readFile(file)).length / 3));
      ({ service, startedAt: started } = await restart(service));
      const again = await answers(service);
      assert.ok(again.main.content.builtAt >= started, 'built again');
      assert.deepEqual(withoutTime(again), withoutTime(first));
    } finally {
      await service.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps the build a commit makes, so the next start loads the new commit', async () => {
    let service = await startTestService({ ADMIN_TOKEN: 'persist-test-admin-token-0123456789' });
    const dataDir = service.dataDir;
    try {
      const headers = { Authorization: 'Bearer persist-test-admin-token-0123456789', 'Content-Type': 'application/json' };
      const res = await fetch(`${service.url}/api/admin/file`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({
          path: 'content/skills/persisted-skill.md',
          content: '---\nname: Persisted skill\ncategory: engineering\n---\nKept.\n',
          message: 'a skill',
        }),
      });
      assert.equal(res.status, 200);
      const {
        commit: { sha: commit },
      } = (await res.json()) as { commit: { sha: string } };
      // main is published by the pipeline
      let health: { content: { commit: string; builtAt: string } };
      for (;;) {
        health = (await (await fetch(`${service.url}/api/health`)).json()) as typeof health;
        if (health.content.commit === commit) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const { service: next, startedAt } = await restart(service);
      service = next;
      const after = (await (await fetch(`${service.url}/api/health`)).json()) as typeof health;
      assert.equal(after.content.commit, commit);
      assert.equal(after.content.builtAt, health.content.builtAt);
      assert.ok(after.content.builtAt < startedAt);
      const kept = (await readdir(join(dataDir, 'builds'))).filter((n) => n.endsWith('.bin'));
      assert.ok(kept.some((n) => n.startsWith(commit)));
    } finally {
      await service.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
