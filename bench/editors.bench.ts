// Several editors (issue "Several editors"): what resolving an account costs on every admin request. GET
// /api/admin/whoami with the owner's token (ADMIN_TOKEN, compared in constant time) and with an editor's (looked up
// by digest in the account store, its use noted at most once a minute), beside /api/health on the same server,
// with 200 editors in the store: in this process's file store, and in Redis when redis-server is installed. Eight
// connections: the credential budget counts a check while it is under way (so that many at once buy no guesses), and
// with Redis more than ten checks of one token from one address in flight at once are refused.
import { spawnSync } from 'node:child_process';
import { load, printTable, ratio, startService } from './lib.ts';
import { startRedis } from '../testing/redis-server.ts';

const TOKEN = 'bench-editors-token-0123456789abcdef';

export async function benchEditors({ duration, editors }: { duration: number; editors: number }): Promise<void> {
  const stores: Array<[string, Record<string, string>, (() => Promise<void>) | undefined]> = [['file', {}, undefined]];
  if (spawnSync('redis-server', ['--version']).status === 0) {
    const redis = await startRedis();
    stores.push(['redis', { RATE_LIMIT_STORE: redis.url }, () => redis.stop()]);
  }
  const rows = [];
  for (const [store, env, stop] of stores) {
    const service = await startService({ ADMIN_TOKEN: TOKEN, ...env });
    try {
      const add = (i: number) =>
        fetch(`${service.url}/api/admin/editors`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `Editor ${i}`, email: `editor${i}@example.org`, role: 'editor' }),
        }).then((res) => res.json() as Promise<{ token: string }>);
      let editorToken = '';
      for (let i = 0; i < editors; i++) editorToken = (await add(i)).token;
      const whoami = `${service.url}/api/admin/whoami`;
      const run = async (url: string, token?: string) => {
        const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
        await load(url, { duration: 2, headers, connections: 8 });
        return load(url, { duration, headers, connections: 8 });
      };
      const health = await run(`${service.url}/api/health`);
      const owner = await run(whoami, TOKEN);
      const editor = await run(whoami, editorToken);
      for (const [who, result] of [
        ['owner (ADMIN_TOKEN)', owner],
        [`editor (1 of ${editors})`, editor],
      ] as const) {
        rows.push({
          store,
          credential: who,
          'req/s': Math.round(result.rps),
          'health req/s': Math.round(health.rps),
          'vs health': ratio(result.rps, health.rps),
          'p99 ms': result.p99,
          errors: result.errors,
        });
      }
    } finally {
      await service.stop();
      await stop?.();
    }
  }
  printTable('Several editors: an admin request resolves its account (whoami), beside /api/health', rows);
}
