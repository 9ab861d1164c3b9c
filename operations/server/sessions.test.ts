// Console sessions counted per account, on both stores (a file in this process, Redis shared by instances): a sign-in
// beyond SESSIONS_PER_ACCOUNT ends that account's oldest session, and nobody else's.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createSessionStore, type SessionStore } from './sessions.server.ts';
import { owner } from './editors.server.ts';
import { startRedis } from '../../testing/redis-server.ts';

const cleanup: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const task of cleanup.reverse()) await task().catch(() => {});
});

const ada = { id: 'ada', name: 'Ada', email: 'ada@example.org', role: 'editor' as const };
const credentials = { ofDigest: async (digest: string) => (digest === 'a'.repeat(64) ? ada : digest === 'b'.repeat(64) ? owner : undefined) };

async function store(kind: 'file' | 'redis'): Promise<SessionStore> {
  const dir = await mkdtemp(join(tmpdir(), 'vitae-sessions-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  if (kind === 'file') return createSessionStore(dir, 'secret', credentials, undefined, 3);
  const redis = await startRedis();
  cleanup.push(() => redis.stop());
  const client = new Redis(redis.url);
  cleanup.push(async () => client.disconnect());
  return createSessionStore(dir, 'secret', credentials, client, 3);
}

for (const kind of ['file', 'redis'] as const) {
  describe(`console sessions (${kind})`, () => {
    it('keeps at most the cap per account: a new sign-in ends the account’s oldest session, and no other account’s', async () => {
      const sessions = await store(kind);
      const owners = await sessions.create('b'.repeat(64), owner.id);
      const adas = [];
      for (let i = 0; i < 5; i++) {
        adas.push(await sessions.create('a'.repeat(64), ada.id));
        await new Promise((resolve) => setTimeout(resolve, 3)); // distinct start times
      }
      const states = await Promise.all(adas.map((s) => sessions.inspect(s.cookieValue).then((c) => c.state)));
      assert.deepEqual(states, ['ended', 'ended', 'live', 'live', 'live']);
      assert.equal((await sessions.inspect(owners.cookieValue)).state, 'live');
    });
  });
}
