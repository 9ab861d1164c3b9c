// Test support: a real service on random loopback ports over a temporary DATA_DIR, and a tiny HTTP client.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../operations/server/config.server.ts';
import { remixWeb, startService, type RunningService } from '../server.ts';
import type { WorkQueueOptions } from '../operations/server/work-queue.server.ts';
import { assertOk, type adminHttp } from './admin-http.ts';

export interface TestService extends RunningService {
  url: string;
  devUrl: string;
  dataDir: string;
  get(path: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

/**
 * Starts the service in process. Pass `DATA_DIR` to reopen an existing one (a restart): `stop()` then
 * leaves it in place, and `close()` never removes anything. With `site`, the web app answers pages (it
 * needs the web build, which `npm test` makes first); without it, the API alone. `clock` replaces Date.now for
 * the credentials' failure budgets, so a test can move time on instead of waiting a quarter of an hour.
 */
export async function startTestService(
  env: Record<string, string> = {},
  { site = false, clock, work }: { site?: boolean; clock?: () => number; work?: WorkQueueOptions } = {},
): Promise<TestService> {
  const owned = !env.DATA_DIR;
  const dataDir = env.DATA_DIR ?? (await mkdtemp(join(tmpdir(), 'vitae-test-')));
  // Search by questions is off unless a test turns it on: its requests to a scripted model would take the replies
  // scripted for the test.
  const config = loadConfig({
    LOG_LEVEL: 'error',
    BASE_URL: 'http://vitae.test',
    DEV_URL: 'http://dev.vitae.test',
    SEARCH_QUESTIONS: 'off',
    ...env,
    DATA_DIR: dataDir,
  });
  const service = await startService(config, { listen: { main: 0, dev: 0 }, clock, work, ...(site ? { web: remixWeb } : {}) });
  const url = service.urls.main!;
  return {
    ...service,
    url,
    devUrl: service.urls.dev!,
    dataDir,
    get: (path, init) => fetch(url + path, init),
    async stop() {
      await service.close();
      if (owned) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Changes one entry's English key result on dev through the admin API (its translations go stale) and waits for the
 * run the commit starts: the file's path and the commit.
 */
export async function changeKeyResult(
  service: TestService,
  api: ReturnType<typeof adminHttp>,
  slug: string,
  keyResult: string,
): Promise<{ path: string; commit: string }> {
  await service.services.pipeline.idle();
  const file = assertOk(await api.get(`/api/admin/file?slug=${slug}&branch=dev`));
  const content = file.content.replace(/^keyResult: .*$/m, `keyResult: ${JSON.stringify(keyResult)}`);
  const commit = assertOk(await api.put({ path: file.path, content, message: `New key result for ${slug}`, branch: 'dev', sha: file.sha })).commit
    .sha as string;
  await service.services.pipeline.idle();
  return { path: file.path as string, commit };
}
