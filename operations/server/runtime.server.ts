// The running service's state: the content repository and the live build of each branch.
// Reads only ever see a complete build; a new build replaces the old one in a single assignment.
import { join, resolve } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { AppError } from '../contract/errors.ts';
import type { Branch } from '../contract/shared.ts';
import { createBuild, type Build } from '../build/corpus.ts';
import { formatProblem, loadContent } from '../content/tree.ts';
import type { Git } from '../repo/git.server.ts';
import { openLocalRepo, readContentAt, readContentDir, resolveBranch, seedRepo } from '../repo/local-repo.server.ts';
import type { Config } from './config.server.ts';
import { loadOrCreateSecret } from './secrets.server.ts';

export interface Runtime {
  config: Config;
  git: Git;
  dataDir: string;
  /** The admin bearer token (from ADMIN_TOKEN or generated once into DATA_DIR). */
  adminToken: string;
  /** True when this start generated the admin token. */
  adminTokenGenerated: boolean;
  startedAt: number;
  build(branch: Branch): Build;
  /** Builds `branch` at its current commit and makes it live. */
  rebuild(branch: Branch): Promise<Build>;
  siteUrl(branch: Branch): string;
}

export class StartupError extends Error {}

/** Opens (or seeds) the content repository and builds `main` and `dev`. */
export async function startRuntime(config: Config): Promise<Runtime> {
  const dataDir = resolve(config.DATA_DIR);
  await mkdir(dataDir, { recursive: true });
  const git = await openLocalRepo(join(dataDir, 'content.git'));
  const adminToken = await loadOrCreateSecret(dataDir, 'admin-token', config.ADMIN_TOKEN);

  if (!(await resolveBranch(git, 'main'))) {
    const files = await readContentDir(resolve(config.CONTENT_DIR));
    const { problems } = loadContent(files);
    if (problems.length) {
      throw new StartupError(`The content in ${config.CONTENT_DIR}/ is invalid, so the repository was not created:\n${problems.map(formatProblem).join('\n')}`);
    }
    await seedRepo(git, files);
  }
  if (!(await resolveBranch(git, 'dev'))) {
    await git.run(['update-ref', 'refs/heads/dev', (await resolveBranch(git, 'main'))!, '']);
  }

  const live = new Map<Branch, Build>();
  const siteUrl = (branch: Branch) => (branch === 'main' ? config.baseUrl : config.devUrl);

  async function buildBranch(branch: Branch): Promise<Build> {
    const commit = await resolveBranch(git, branch);
    if (!commit) throw new AppError('repo_error', `branch ${branch} does not exist in the content repository`);
    const { files, irregular } = await readContentAt(git, commit);
    const { model, problems } = loadContent(files);
    for (const entry of irregular) problems.push({ path: entry.path, message: 'not a regular file (symlinks and submodules are not allowed in content/)' });
    if (!model || problems.length) {
      throw new AppError('invalid', `The content of ${branch} at ${commit.slice(0, 7)} is invalid`, { errors: problems });
    }
    return createBuild(model, { commit, siteUrl: siteUrl(branch) });
  }

  for (const branch of ['main', 'dev'] as const) {
    try {
      live.set(branch, await buildBranch(branch));
    } catch (error) {
      if (error instanceof AppError && error.errors) {
        throw new StartupError(`${error.message}:\n${error.errors.map(formatProblem).join('\n')}`);
      }
      throw error;
    }
  }

  return {
    config,
    git,
    dataDir,
    adminToken: adminToken.value,
    adminTokenGenerated: adminToken.generated,
    startedAt: Date.now(),
    build(branch) {
      return live.get(branch)!;
    },
    async rebuild(branch) {
      const build = await buildBranch(branch);
      live.set(branch, build);
      return build;
    },
    siteUrl,
  };
}
