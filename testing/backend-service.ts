// Test support: the service in process on either repository backend. `local` is `startTestService` as it
// is; `github` starts a GitHub emulator seeded from the same content folder and points the service at it
// (REPO_BACKEND=github, GITHUB_API_URL, GITHUB_TOKEN, GITHUB_REPOSITORY). Either way `gitDir` is the bare git
// repository behind the backend, for tests that look at it (or push to it) with plain git.
import { join, resolve } from 'node:path';
import { startTestService, type TestService } from './service.ts';
import { startGitHubEmulator, type GitHubEmulator } from './github-emulator.ts';
import { addActions, type EmulatedActions } from './github-emulator-actions.ts';

export type BackendName = 'local' | 'github';
/** GITHUB_WEBHOOK_SECRET of a service started on github here (tests that sign webhook deliveries use it). */
export const WEBHOOK_SECRET = 'backend-service-webhook-secret';
export const backends: BackendName[] = ['local', 'github'];

export interface BackendService extends TestService {
  backend: BackendName;
  /** The bare repository holding the content (DATA_DIR/content.git, or the emulator's). */
  gitDir: string;
  /** The emulator, on `github`. */
  emulator?: GitHubEmulator;
  /** Its Actions (runs of the publish workflow, webhooks to this service), on `github`. */
  actions?: EmulatedActions;
}

export async function startServiceOn(
  backend: BackendName,
  env: Record<string, string> = {},
  options: { site?: boolean; emulator?: GitHubEmulator } = {},
): Promise<BackendService> {
  if (backend === 'local') {
    const service = await startTestService(env, options);
    return { ...service, backend, gitDir: join(service.dataDir, 'content.git') };
  }
  const owned = !options.emulator;
  const emulator = options.emulator ?? (await startGitHubEmulator({ seedDir: resolve(env.CONTENT_DIR ?? 'content') }));
  // The publish runs happen in (emulated) GitHub Actions, which tells the service by webhook.
  const actions = addActions(emulator, { secret: WEBHOOK_SECRET });
  try {
    const service = await startTestService(
      {
        REPO_BACKEND: 'github',
        GITHUB_API_URL: emulator.url,
        GITHUB_TOKEN: emulator.token,
        GITHUB_REPOSITORY: emulator.repository,
        GITHUB_WRITE_INTERVAL_MS: '0',
        GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET,
        ...env,
      },
      options,
    );
    const hook = `${service.url}/api/admin/github/webhook`;
    actions.webhookUrls.push(hook);
    return {
      ...service,
      backend,
      gitDir: emulator.bareDir,
      emulator,
      actions,
      async stop() {
        actions.webhookUrls.splice(actions.webhookUrls.indexOf(hook), 1);
        await service.stop();
        // Closing the emulator stops its runs first (they read the repository it removes).
        if (owned) await emulator.close();
      },
    };
  } catch (error) {
    if (owned) await emulator.close();
    throw error;
  }
}
