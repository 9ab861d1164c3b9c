// The repository of a backend that cannot be used (REPO_BACKEND=github before that backend exists): every
// operation on it answers 503 `repo_not_configured` with the reason, while the site keeps serving the
// content it was started with.
import { AppError } from '../contract/errors.ts';
import type { ContentRepo } from './content-repo.server.ts';

export function createUnconfiguredRepo(reason: string): ContentRepo {
  const refuse = () => Promise.reject(new AppError('repo_not_configured', reason));
  return {
    head: refuse,
    filesAt: refuse,
    listFiles: refuse,
    readFile: refuse,
    history: refuse,
    compare: refuse,
    validate: refuse,
    commit: refuse,
    promote: refuse,
  };
}
