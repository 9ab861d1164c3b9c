// `/api/health`: liveness and what is configured, never a secret.
import { readFileSync } from 'node:fs';
import type { Branch } from '../contract/shared.ts';
import type { Services } from './services.server.ts';

export const version: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

export type HealthDeps = Pick<Services, 'corpus' | 'startedAt' | 'repoBackend' | 'models'>;

export function healthReport({ corpus, startedAt, repoBackend, models }: HealthDeps, branch: Branch) {
  const build = corpus.build(branch);
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
  };
}
