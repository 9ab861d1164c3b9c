// The account store under concurrent changes, on both of its stores (a file in this process, Redis shared by two
// instances): changes made at the same moment never undo each other — a revocation is never lost to a role change
// made meanwhile, each new token is kept — and two additions of the same name get two ids.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createEditorStore, tokenDigest, TOKENS_MAX, type EditorStore } from './editors.server.ts';
import { startRedis, type TestRedis } from '../../testing/redis-server.ts';

const cleanup: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const task of cleanup.reverse()) await task().catch(() => {});
});

async function stores(kind: 'file' | 'redis'): Promise<[EditorStore, EditorStore]> {
  const dir = await mkdtemp(join(tmpdir(), 'vitae-editors-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  if (kind === 'file') {
    const store = await createEditorStore(dir);
    return [store, store];
  }
  const redis: TestRedis = await startRedis();
  cleanup.push(() => redis.stop());
  const [a, b] = [new Redis(redis.url), new Redis(redis.url)];
  cleanup.push(async () => (a.disconnect(), b.disconnect()));
  return [await createEditorStore(dir, a), await createEditorStore(dir, b)];
}

for (const kind of ['file', 'redis'] as const) {
  describe(`the account store (${kind})`, () => {
    it('applies changes made at the same moment, each once: tokens issued and revoked and a role changed together', async () => {
      const [a, b] = await stores(kind);
      const { editor, token: first } = await a.add({ name: 'Ada Lovelace', email: 'ada@example.org', role: 'editor' });
      const issued = await Promise.all(Array.from({ length: TOKENS_MAX - 1 }, (_, i) => (i % 2 ? a : b).update(editor.id, { newToken: true })));
      const [revoked] = await Promise.all([
        b.update(editor.id, { revokeToken: editor.tokens[0]!.id }),
        a.update(editor.id, { role: 'publisher' }),
        b.update(editor.id, { name: 'Ada King' }),
      ]);
      assert.equal(revoked.revoked, editor.tokens[0]!.id);
      const now = (await a.get(editor.id))!;
      assert.deepEqual([now.role, now.name], ['publisher', 'Ada King']);
      assert.deepEqual(
        now.tokens.map((t) => t.id).sort(),
        issued.map((i) => i.editor.tokens.at(-1)!.id).sort(),
        'every issued token kept, the revoked one gone',
      );
      assert.equal(await b.byDigest(tokenDigest(first)), undefined, 'the revoked token is refused');
      for (const { token } of issued) assert.equal((await b.byDigest(tokenDigest(token!)))?.editor.id, editor.id);
    });

    it('gives two editors added at once under one name two ids, and removes each once', async () => {
      const [a, b] = await stores(kind);
      const added = await Promise.all([a, b, a, b].map((store) => store.add({ name: 'Grace Hopper', email: 'grace@example.org', role: 'editor' })));
      assert.deepEqual(added.map((x) => x.editor.id).sort(), ['grace-hopper', 'grace-hopper-2', 'grace-hopper-3', 'grace-hopper-4']);
      const removals = await Promise.allSettled([a.remove('grace-hopper'), b.remove('grace-hopper')]);
      assert.deepEqual(removals.map((r) => r.status).sort(), ['fulfilled', 'rejected'], 'removed once; the second finds nothing');
      assert.equal((await b.list()).length, 3);
    });
  });
}
