// `/api/health`: liveness and what is configured, never a secret.
import packageJson from '../../package.json' with { type: 'json' };
import type { Branch } from '../contract/shared.ts';
import type { Services } from './services.server.ts';

export const version: string = packageJson.version;

/** What the web app's page cache holds (reported by /api/health; the cache is the web app's, see server.ts). */
export interface PageCacheFigures {
  pages: number;
  bytes: number;
  budgetBytes: number;
  hits: number;
  renders: number;
}

export type HealthDeps = Pick<Services, 'corpus' | 'startedAt' | 'repoBackend' | 'models'> & {
  /** The page cache's figures, when the web app has one. */
  pageCache?: () => PageCacheFigures | undefined;
};

export function healthReport({ corpus, startedAt, repoBackend, models, pageCache }: HealthDeps, branch: Branch) {
  const build = corpus.build(branch);
  const pages = pageCache?.();
  return {
    status: 'ok' as const,
    version,
    uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
    branch,
    content: { commit: build.commit, builtAt: build.builtAt, entries: build.model.entries.size },
    chat: { configured: Boolean(models) },
    transcription: { configured: Boolean(models) },
    repo: { backend: repoBackend.name, configured: repoBackend.configured },
    admin: { configured: true },
    ...(pages ? { pageCache: { pages: pages.pages, bytes: pages.bytes, budgetBytes: pages.budgetBytes, hits: pages.hits, renders: pages.renders } } : {}),
  };
}
