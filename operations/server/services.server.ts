// The state behind the operations, opened once at start: the content repository, the live build of each
// branch (a deploy replaces it in one assignment, so reads only ever see a complete build), the publish
// pipeline, the model provider and the rate limits. Handlers receive the few of these they use.
import { join, resolve } from 'node:path';
import { access, constants, mkdir, readdir } from 'node:fs/promises';
import { AppError } from '../contract/errors.ts';
import { branches, type Branch } from '../contract/shared.ts';
import type { Build } from '../corpus/corpus.ts';
import { formatProblem, loadContent } from '../content/tree.ts';
import { openLocalRepo, readContentDir, readMediaDir, resolveBranch, seedRepo } from '../repo/local-repo.server.ts';
import { createContentRepo, type ContentRepo } from '../repo/content-repo.server.ts';
import { openGitHubRepo } from '../repo/github-repo.server.ts';
import type { Config } from './config.server.ts';
import { loadOrCreateSecret } from './secrets.server.ts';
import { createPipeline, type Pipeline } from './pipeline.server.ts';
import { createActionsPipeline, type ActionsPipeline, type GitHubEvent } from './actions-pipeline.server.ts';
import { createModels, type Models } from './models.server.ts';
import { createRateLimits, type RateLimits } from './rate-limit.server.ts';
import { translateBranch } from './translate.server.ts';
import { countedGitHubFetch, observeGitCommand } from './metrics.server.ts';
import { openSearchExtras } from './search-extras.server.ts';
import { openMediaLibrary, type MediaLibrary } from './media-library.server.ts';
import { openLiveBuilds, type GitHubRuns, type LiveBuilds } from './live-builds.server.ts';
import { StartupError } from './startup-error.server.ts';

export { StartupError };

/** The live build of each branch: what every read operation answers from. */
export interface Corpus {
  build(branch: Branch): Build;
}

/** Where each branch is published: `main` at BASE_URL, `dev` at DEV_URL. */
export interface SiteUrls {
  base: string;
  dev: string;
  of(branch: Branch): string;
}

export interface Services {
  /** What the admin operations read and change; refuses everything when no backend is usable. */
  repo: ContentRepo;
  corpus: Corpus;
  pipeline: Pipeline;
  /** github backend: what GitHub's webhook said (a push, a workflow run); the runs are read again. */
  githubEvent?: (event: GitHubEvent) => void;
  /** The model provider, when OPENAI_API_KEY or OPENAI_BASE_URL is set. */
  models: Models | undefined;
  rateLimits: RateLimits;
  urls: SiteUrls;
  secrets: { adminToken: string; adminTokenGenerated: boolean; sessionSecret: string };
  repoBackend: { name: Config['REPO_BACKEND']; configured: boolean };
  dataDir: string;
  /** The content's images: their facts and variants (served under /media/). */
  media: MediaLibrary;
  startedAt: number;
  /** Resolves once the passages' questions asked for so far are generated (or failed) and served (tests). */
  questionsSettled(): Promise<void>;
  /** Stops background work and waits for the pipeline to finish what it is doing. */
  close(): Promise<void>;
}

/** How often the repository is checked for commits pushed from outside the service. */
const WATCH_INTERVAL_MS = 3000;

export function siteUrls(config: Pick<Config, 'baseUrl' | 'devUrl'>): SiteUrls {
  return { base: config.baseUrl, dev: config.devUrl, of: (branch) => (branch === 'main' ? config.baseUrl : config.devUrl) };
}

/** Opens (or seeds) the content repository, serves the last deployed build of each branch, and publishes what is newer. */
export async function openServices(config: Config, log: (line: string) => void): Promise<Services> {
  const { dataDir, secrets } = await openDataDir(config);
  const repo = config.REPO_BACKEND === 'github' ? await openGitHub(config, log) : await openLocal(config, dataDir, log);
  const urls = siteUrls(config);
  const models = await createModels(config);
  const rateLimits = createRateLimits(config.RATE_LIMIT_STORE);
  const live = new Map<Branch, Build>();
  const extras = await openSearchExtras(config, models, dataDir, live, log);
  const media = await openMediaLibrary(join(dataDir, 'media'), repo);
  const builds = await openLiveBuilds({ dataDir, repo, siteUrl: urls.of, extras, live, log, media });
  const github = githubRuns(config);
  await builds.serveDeployed(github);
  builds.startServing();
  extras.askLater(); // the questions the served builds lack
  const { pipeline, actions } = await openPipeline({ dataDir, repo, models, builds, live, github, log });
  await pipeline.recover();
  const watcher = await watchHeads(repo, pipeline, live);

  return {
    repo,
    corpus: { build: (branch) => live.get(branch)! },
    pipeline,
    ...(actions ? { githubEvent: (event: GitHubEvent) => actions.notice(event) } : {}),
    models,
    rateLimits,
    urls,
    secrets,
    repoBackend: { name: config.REPO_BACKEND, configured: true },
    dataDir,
    media,
    startedAt: Date.now(),
    questionsSettled: () => extras.settled(),
    async close() {
      const watched = watcher.stop();
      builds.stop();
      extras.stop(); // the model's answers under way are dropped; what was kept stays
      await watched;
      await pipeline.stop();
      await extras.settled();
      await builds.close();
      await rateLimits.close();
    },
  };
}

/** DATA_DIR, made if missing, and the secrets kept in it (those the configuration gives are used as they are). */
async function openDataDir(config: Config): Promise<{ dataDir: string; secrets: Services['secrets'] }> {
  const dataDir = resolve(config.DATA_DIR);
  await writableDataDir(dataDir);
  const adminToken = await loadOrCreateSecret(dataDir, 'admin-token', config.ADMIN_TOKEN);
  const sessionSecret = await loadOrCreateSecret(dataDir, 'session-secret', config.SESSION_SECRET);
  return { dataDir, secrets: { adminToken: adminToken.value, adminTokenGenerated: adminToken.generated, sessionSecret: sessionSecret.value } };
}

/**
 * DATA_DIR made if missing, and it and what is in it writable by this process: said in one line at start, naming
 * DATA_DIR, rather than as a stack from the first write (a `mkdir` EACCES, or git's "could not lock config file"
 * when an earlier start ran as root).
 */
async function writableDataDir(dataDir: string): Promise<void> {
  const who = process.getuid ? `user ${process.getuid()}` : 'this user';
  try {
    await mkdir(dataDir, { recursive: true });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new StartupError(`DATA_DIR ${dataDir} cannot be made (${code ?? message}): set DATA_DIR to a directory ${who}, which runs the service, can write.`);
  }
  for (const name of ['', ...(await readdir(dataDir))]) {
    try {
      await access(join(dataDir, name), constants.W_OK);
    } catch {
      throw new StartupError(
        `DATA_DIR ${dataDir}${name ? ` holds ${name}, which` : ''} is not writable by ${who}, which runs the service: give it to that user (chown -R) or set DATA_DIR to a directory it owns.`,
      );
    }
  }
}

/** The github backend's Actions runs; none for the local backend. */
function githubRuns(config: Config): GitHubRuns | undefined {
  return config.REPO_BACKEND === 'github' ? { token: config.GITHUB_TOKEN!, repository: config.GITHUB_REPOSITORY!, apiUrl: config.GITHUB_API_URL } : undefined;
}

/**
 * The seam where a commit becomes a run. The local backend runs translate → build → deploy here, in the service, for
 * the commits it sees (its own, and pushes the watcher notices); the github backend's runs are GitHub Actions runs of
 * .github/workflows/publish.yml, which this pipeline follows (actions-pipeline.server.ts): a run that succeeded is
 * built here from its commit and deployed, a failed one never is.
 */
async function openPipeline(options: {
  dataDir: string;
  repo: ContentRepo;
  models: Models | undefined;
  builds: LiveBuilds;
  live: ReadonlyMap<Branch, Build>;
  github: GitHubRuns | undefined;
  log: (line: string) => void;
}): Promise<{ pipeline: Pipeline; actions?: ActionsPipeline }> {
  const { dataDir, repo, models, builds, live, github, log } = options;
  const steps = { build: builds.buildAt, deploy: builds.deploy };
  if (github) {
    const actions = createActionsPipeline({ ...github, ...steps, live: (branch) => live.get(branch)!.commit, log });
    return { pipeline: actions, actions };
  }
  const translate = (branch: Branch, commit: string) => translateBranch(repo, models?.translate, branch, commit);
  return { pipeline: await createPipeline(dataDir, { translate, ...steps }, log) };
}

/**
 * Checks the branches' heads now and every WATCH_INTERVAL_MS for commits pushed from outside the service, and queues
 * a run for each new head. `stop` ends the checks and resolves when the one under way has ended.
 */
async function watchHeads(repo: ContentRepo, pipeline: Pipeline, live: ReadonlyMap<Branch, Build>): Promise<{ stop(): Promise<void> }> {
  const seen = new Map<Branch, string>();
  async function watch() {
    for (const branch of branches) {
      const head = await repo.head(branch).catch(() => null);
      if (!head || seen.get(branch) === head) continue;
      seen.set(branch, head);
      if (head !== live.get(branch)!.commit) await pipeline.ensure(branch, head);
    }
  }
  await watch();
  let watching: Promise<void> | undefined;
  const timer = setInterval(() => {
    watching ??= watch()
      .catch(() => {})
      .finally(() => (watching = undefined));
  }, WATCH_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await watching;
    },
  };
}

/** The local backend: a bare git repository under DATA_DIR, seeded from CONTENT_DIR on first start. */
async function openLocal(config: Config, dataDir: string, log: (line: string) => void): Promise<ContentRepo> {
  const git = await openLocalRepo(join(dataDir, 'content.git'), log, observeGitCommand);
  if (!(await resolveBranch(git, 'main'))) {
    const files = await readContentDir(resolve(config.CONTENT_DIR));
    const { problems } = loadContent(files);
    if (problems.length) {
      throw new StartupError(`The content in ${config.CONTENT_DIR}/ is invalid, so the repository was not created:\n${problems.map(formatProblem).join('\n')}`);
    }
    await seedRepo(git, files, undefined, await readMediaDir(resolve(config.CONTENT_DIR)));
  }
  if (!(await resolveBranch(git, 'dev'))) {
    await git.run(['update-ref', 'refs/heads/dev', (await resolveBranch(git, 'main'))!, '']);
  }
  return createContentRepo(git);
}

/**
 * The github backend: GITHUB_REPOSITORY through GITHUB_API_URL with GITHUB_TOKEN. The start stops with one line
 * when the API is unreachable, the token is refused or cannot read the repository, or a branch is missing; a
 * token that may read but not write is a warning (the site serves, writes answer 502 naming the permission).
 */
async function openGitHub(config: Config, log: (line: string) => void): Promise<ContentRepo> {
  const opened = await openGitHubRepo({
    token: config.GITHUB_TOKEN!,
    repository: config.GITHUB_REPOSITORY!,
    apiUrl: config.GITHUB_API_URL,
    writeIntervalMs: config.GITHUB_WRITE_INTERVAL_MS,
    log,
    fetch: countedGitHubFetch('repo'),
  }).catch((error: unknown) => {
    throw new StartupError((error as Error).message);
  });
  if (!opened.canWrite)
    log(`GITHUB_TOKEN may read ${config.GITHUB_REPOSITORY} but not write to it (it needs "Contents: Read and write"); admin writes will answer 502`);
  for (const branch of branches) {
    await opened.repo.head(branch).catch((error: unknown) => {
      throw new StartupError(
        error instanceof AppError && error.code === 'repo_not_configured'
          ? `GITHUB_REPOSITORY ${config.GITHUB_REPOSITORY} has no branch "${branch}"; create it (from main) and start again.`
          : `GITHUB_REPOSITORY ${config.GITHUB_REPOSITORY}: ${(error as Error).message}`,
      );
    });
  }
  return opened.repo;
}
