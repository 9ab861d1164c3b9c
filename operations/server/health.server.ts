// `/api/health`: liveness and what is configured, never a secret.
import { readFileSync } from 'node:fs';
import { operations } from '../contract/index.ts';
import type { Branch } from '../contract/shared.ts';
import type { Runtime } from './runtime.server.ts';

const version: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

export function healthReport(runtime: Runtime, branch: Branch) {
  const build = runtime.build(branch);
  const { config } = runtime;
  return {
    status: 'ok' as const,
    version,
    uptimeSeconds: Math.round((Date.now() - runtime.startedAt) / 1000),
    branch,
    content: { commit: build.commit, builtAt: build.builtAt, entries: build.model.entries.size },
    chat: { configured: config.chatConfigured },
    transcription: { configured: config.chatConfigured },
    repo: { backend: config.REPO_BACKEND, configured: config.REPO_BACKEND === 'local' },
    admin: { configured: operations.some((op) => op.auth === 'admin') },
  };
}
