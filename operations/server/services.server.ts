// The state behind the operations, opened once at start: the content repository, the live build of each
// branch (a deploy replaces it in one assignment, so reads only ever see a complete build), the publish
// pipeline, the model provider and the rate limits. Handlers receive the few of these they use.
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { AppError } from '../contract/errors.ts';
import { branches, type Branch } from '../contract/shared.ts';
import { createBuild, type Build } from '../corpus/corpus.ts';
import { slicer } from '../content/pause.ts';
import { openBuildStore, restoreBuild } from '../corpus/persist.ts';
import type { Passage } from '../corpus/search.ts';
import { forgetTermCounts } from '../corpus/term-counts.ts';
import { createBuilder } from './builder.server.ts';
import { formatProblem, irregularProblems, loadContent, loadContentSliced, problemsOfContent } from '../content/tree.ts';
import { rememberParses } from '../content/kept-parses.ts';
import { openLocalRepo, readContentDir, resolveBranch, seedRepo } from '../repo/local-repo.server.ts';
import { createContentRepo, type ContentRepo } from '../repo/content-repo.server.ts';
import { openGitHubRepo } from '../repo/github-repo.server.ts';
import type { Config } from './config.server.ts';
import { loadOrCreateSecret } from './secrets.server.ts';
import { readJson, writeFileAtomic } from './files.server.ts';
import { createPipeline, type Pipeline } from './pipeline.server.ts';
import { createActionsPipeline, lastPublished, type GitHubEvent } from './actions-pipeline.server.ts';
import { createModels, describeProviderError, type Models } from './models.server.ts';
import { openEmbeddingCache, VectorIndex } from '../corpus/embeddings.ts';
import { createHybridSearch } from '../corpus/hybrid.ts';
import { createQuestionSearch, openQuestionCache, type GenerateQuestions, type QuestionCache } from '../corpus/passage-questions.ts';
import { createRateLimits, type RateLimits } from './rate-limit.server.ts';
import { translateBranch } from './translate.server.ts';
import { countedGitHubFetch, observeGitCommand, timedBuild } from './metrics.server.ts';

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
  startedAt: number;
  /** Resolves once the passages' questions asked for so far are generated (or failed) and served (tests). */
  questionsSettled(): Promise<void>;
  /** Stops background work and waits for the pipeline to finish what it is doing. */
  close(): Promise<void>;
}

export class StartupError extends Error {}

/** How often the repository is checked for commits pushed from outside the service. */
const WATCH_INTERVAL_MS = 3000;

export function siteUrls(config: Pick<Config, 'baseUrl' | 'devUrl'>): SiteUrls {
  return { base: config.baseUrl, dev: config.devUrl, of: (branch) => (branch === 'main' ? config.baseUrl : config.devUrl) };
}

/** Opens (or seeds) the content repository, serves the last deployed build of each branch, and publishes what is newer. */
export async function openServices(config: Config, log: (line: string) => void): Promise<Services> {
  const dataDir = resolve(config.DATA_DIR);
  await mkdir(dataDir, { recursive: true });
  const adminToken = await loadOrCreateSecret(dataDir, 'admin-token', config.ADMIN_TOKEN);
  const sessionSecret = await loadOrCreateSecret(dataDir, 'session-secret', config.SESSION_SECRET);
  const repo = config.REPO_BACKEND === 'github' ? await openGitHub(config, log) : await openLocal(config, dataDir, log);
  const urls = siteUrls(config);
  const models = await createModels(config);
  const rateLimits = createRateLimits(config.RATE_LIMIT_STORE);
  const live = new Map<Branch, Build>();
  const deployedFile = join(dataDir, 'deployed.json');
  const deployed = await readJson<Partial<Record<Branch, string>>>(deployedFile, {});
  // Hybrid search (EMBEDDING_MODEL): passages embedded once, kept by the hash of their text under DATA_DIR.
  const embeddings =
    models?.embedTexts && models.embeddingModel
      ? await openEmbeddingCache(join(dataDir, 'embeddings', `${models.embeddingModel.replace(/[^\w.-]+/g, '_')}.bin`), models.embeddingModel)
      : undefined;

  // Search by questions (SEARCH_QUESTIONS, on with a model): the questions each passage answers, generated once by
  // the model and kept by the hash of what it read under DATA_DIR (never in content/).
  const questionCache: QuestionCache | undefined =
    config.searchQuestions && models ? await openQuestionCache(join(dataDir, 'questions', `${safeFileName(models.questionsModel)}.json`)) : undefined;
  /** A build's embeddings (hybrid search is fused again over a copy of it that holds questions). */
  const vectorsOf = new WeakMap<Build, VectorIndex>();
  /** A build with questions: the id of the build it was made from, and a digest of the questions its index holds. */
  const questionsServed = new WeakMap<Build, { baseId: string; digest: string }>();

  const hybridOver = (build: Build, vectors: VectorIndex, embed: NonNullable<Models['embedTexts']>) =>
    createHybridSearch({
      bm25: build.questions ?? build.search,
      passages: build.passages!,
      vectors,
      embedQuery: embed,
      onFailure: (error) => log(`[vitae] the embeddings model failed; search answered with BM25 alone: ${describeProviderError(error)}`),
      minSimilarity: config.EMBEDDING_MIN_SIMILARITY,
    });

  /** Adds hybrid search to a build when embeddings are configured; a model that cannot be reached leaves BM25 alone. */
  async function withHybrid(build: Build): Promise<Build> {
    const embed = models?.embedTexts;
    if (!embeddings || !embed || !build.passages) return build;
    try {
      const vectors = new VectorIndex(await embeddings.vectorsOf(build.passages.map(embeddingText), embed));
      vectorsOf.set(build, vectors);
      build.hybrid = hybridOver(build, vectors, embed);
    } catch (error) {
      log(`[vitae] the passages of ${build.commit.slice(0, 7)} could not be embedded (${describeProviderError(error)}): its search is BM25 alone`);
    }
    return build;
  }

  /**
   * The build with the questions the cache holds for its passages: a copy whose search also matches them, with an id
   * of its own (answers kept by build id, and their ETags, were made without them). The build itself when the cache
   * holds no questions for it, or the same ones it has. Asks the model nothing.
   */
  async function withQuestions(build: Build): Promise<Build> {
    const cache = questionCache;
    if (!cache || !build.passages) return build;
    const hash = createHash('sha256');
    let count = 0;
    for (const passage of build.passages) {
      const questions = cache.questionsOf(passage);
      if (!questions) continue;
      count++;
      hash.update(`${passage.url}\0${questions.join('\n')}\0`);
    }
    const digest = hash.digest('hex');
    if (!count || questionsServed.get(build)?.digest === digest) return build;
    try {
      const questions = await createQuestionSearch({
        main: build.search,
        passages: build.passages,
        questionsOf: (passage) => cache.questionsOf(passage),
        related: build.model.relatedTerms,
        pause: slicer(),
      });
      const baseId = questionsServed.get(build)?.baseId ?? build.id;
      const next: Build = { ...build, id: createHash('sha256').update(`${baseId}\n${digest}`).digest('hex').slice(0, 20), questions };
      questionsServed.set(next, { baseId, digest });
      const vectors = vectorsOf.get(build);
      if (vectors && models?.embedTexts) {
        vectorsOf.set(next, vectors);
        next.hybrid = hybridOver(next, vectors, models.embedTexts);
      }
      return next;
    } catch (error) {
      log(`[vitae] the questions of the passages of ${build.commit.slice(0, 7)} could not be indexed (${(error as Error).message}); its search is as it was`);
      return build;
    }
  }

  // The questions a live build's passages lack are generated after it goes live, in the background (a deploy never
  // waits for the model), one run at a time; then the live build is swapped for a copy whose search holds them.
  const stopAsking = new AbortController();
  let asking: Promise<void> = Promise.resolve();
  function askLater(): void {
    const cache = questionCache;
    const generate = models?.generateQuestions;
    if (!cache || !generate || stopAsking.signal.aborted) return;
    asking = asking
      .then(() => askLive(cache, generate))
      .catch((error: unknown) => log(`[vitae] the passages' questions could not be served: ${(error as Error).message}`));
  }
  async function askLive(cache: QuestionCache, generate: GenerateQuestions): Promise<void> {
    let failed = false;
    for (const branch of branches) {
      const build = live.get(branch);
      if (!build?.passages || stopAsking.signal.aborted) return;
      const missing = failed ? [] : cache.missing(build.passages);
      if (missing.length) {
        try {
          await cache.fill(missing, generate, { signal: stopAsking.signal });
        } catch (error) {
          if (stopAsking.signal.aborted) return;
          failed = true; // logged once a run: the other branch's passages are not asked for after a failure
          log(
            `[vitae] the model could not write the questions of ${missing.length} passages of ${build.commit.slice(0, 7)} (${describeProviderError(error)}); search goes on without them, and they are asked for again at the next build`,
          );
        }
      }
      const next = await withQuestions(build);
      if (next !== build && live.get(branch) === build) live.set(branch, next);
    }
  }

  // Builds kept by commit (operations/corpus/persist.ts): a restart, or the pipeline after one, loads the build of
  // a commit it made before instead of making it again.
  // A build is written when the service is not answering yet (made at start) or no longer (at a stop): writing
  // serialises it on the main thread, which held requests for 0.2 s at 10× after every commit. After a crash the
  // next start makes the last deployed build again, as every start did before builds were kept.
  const builds = await openBuildStore(join(dataDir, 'builds'), { log });
  const builder = createBuilder({ log });
  const keptCommits = new Set<string>();
  let serving = false;
  const keepBuild = (build: Build) => {
    if (serving || keptCommits.has(build.commit)) return;
    keptCommits.add(build.commit);
    void builds
      .save(build)
      .then(() => builds.prune([...live.values()].map((b) => b.commit)))
      .catch((error: unknown) => log(`[vitae] kept builds could not be pruned: ${(error as Error).message}`));
  };

  /** A commit's build, timed for /metrics (`vitae_build_duration_seconds`). */
  const buildAt = (branch: Branch, commit: string): Promise<Build> => timedBuild(() => makeBuild(branch, commit));
  async function makeBuild(branch: Branch, commit: string): Promise<Build> {
    const keepPassages = Boolean(embeddings || questionCache);
    const sibling = [...live.values()].find((build) => build.commit === commit);
    if (sibling) {
      // Another branch serves this commit: its model (valid, the same content) and its index are shared.
      return createBuild(sibling.model, {
        commit,
        committedAt: new Date(sibling.committedAt),
        builtAt: new Date(sibling.builtAt),
        fileTimes: sibling.fileTimes,
        siteUrl: urls.of(branch),
        pause: slicer(),
        sibling,
        keepPassages,
      })
        .then(withQuestions)
        .then(withHybrid);
    }
    const kept = await builds.load(commit);
    if (kept) keptCommits.add(commit);
    if (kept) {
      try {
        // with its passages (the index holds them anyway): the warm-up below tokenises them
        return await withHybrid(await withQuestions(await restoreBuild(kept, { siteUrl: urls.of(branch), pause: slicer(), keepPassages: true })));
      } catch (error) {
        log(`[vitae] the kept build of ${commit.slice(0, 7)} does not fit this content (${(error as Error).message}); building it again`);
      }
    }
    // The files are loaded and validated here, in slices (their parse is cached here: the commit's validation made
    // it); the passages and the search index are made in the worker thread, which sends the passages that
    // changed since the branch's live build and the index as data. This thread makes each locale's records,
    // in slices, as for a kept build.
    const [files, committedAt, fileTimes] = await Promise.all([repo.filesAt(commit), repo.committedAt(commit), repo.fileTimes(commit)]);
    const pause = slicer();
    const loaded = await loadContentSliced(files.texts, pause);
    const problems = [...loaded.problems, ...irregularProblems(files.tree)];
    if (!loaded.model || problems.length) {
      throw new AppError(
        'invalid',
        `the content at ${commit.slice(0, 7)} is invalid: ${problems.slice(0, 5).map(formatProblem).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`,
        { errors: problems },
      );
    }
    let build: Build;
    if (!serving) {
      // Before the service answers (a start with no kept build), on this thread: nothing waits for it, it is
      // faster without the transfer, and a start that needs no worker does not pay its memory.
      build = await createBuild(loaded.model, { commit, committedAt, fileTimes, siteUrl: urls.of(branch), keepPassages: true });
    } else {
      const current = live.get(branch);
      const made = await builder.make(
        {
          commit,
          committedAt,
          fileTimes,
          siteUrl: urls.of(branch),
          files,
          model: loaded.model,
          ...(current?.passages ? { base: { commit: current.commit, siteUrl: current.siteUrl, passages: current.passages } } : {}),
        },
        pause,
      );
      if ('problems' in made) throw new AppError('invalid', `the content at ${commit.slice(0, 7)} is invalid`, { errors: made.problems });
      // Its passages stay on the build (the index holds them anyway): keeping the build needs them.
      build = await restoreBuild(made.kept, { siteUrl: urls.of(branch), pause, keepPassages: true });
    }
    keepBuild(build);
    return withHybrid(await withQuestions(build));
  }

  // Serve what was deployed last; a newer head is published by the pipeline (below), not at start. With
  // nothing deployed yet, serve the newest valid commit of the branch (an outside push may be invalid).
  // github: the commit the newest successful Actions run published comes first, so that a new instance never
  // starts on a commit whose run failed (the newest valid commit only when no run has succeeded yet).
  const github =
    config.REPO_BACKEND === 'github' ? { token: config.GITHUB_TOKEN!, repository: config.GITHUB_REPOSITORY!, apiUrl: config.GITHUB_API_URL } : undefined;
  // A restart loads kept builds, and the worker then warms up from them (from main's, when both branches serve one
  // commit): it starts now, and reads that build while this thread restores its own copy.
  if (deployed.main) builder.start(builds.keptFile(deployed.main));
  for (const branch of branches) {
    const published =
      github && !deployed[branch]
        ? await lastPublished(github, branch).catch((error: unknown) => {
            throw new StartupError((error as Error).message); // one line, as every other refusal to start
          })
        : undefined;
    const candidates = deployed[branch] ? [deployed[branch]] : published ? [published] : await repo.recentCommits(branch, 50);
    let lastError: unknown;
    for (const commit of candidates) {
      try {
        live.set(branch, await buildAt(branch, commit));
        break;
      } catch (error) {
        lastError ??= error;
      }
    }
    if (!live.has(branch)) {
      if (lastError instanceof AppError && lastError.errors) {
        throw new StartupError(`The content of ${branch} is invalid and no earlier commit could be served:\n${lastError.errors.map(formatProblem).join('\n')}`);
      }
      throw lastError;
    }
    deployed[branch] = live.get(branch)!.commit;
  }
  await writeFileAtomic(deployedFile, JSON.stringify(deployed, null, 2));
  // What the builds made here counted is not needed here again: from now on the build worker makes builds.
  forgetTermCounts();

  // A loaded build neither read and validated the commit's files nor split and counted its text, which the next
  // build (the first commit after a restart) would then do cold. Both are done once in the background as the start
  // ends: this thread remembers every file's parse from the kept model (whole-tree validation of a commit runs here),
  // and the worker reads the kept build itself and fills its caches. (Waiting longer leaves a commit made at once to
  // meet both cold, which held requests for over a second at 10×.)
  let stopped = false;
  const warming = builds.counts.loaded
    ? (async () => {
        await new Promise((resolve) => setImmediate(resolve));
        // One warm-up per commit, at main's address when both branches serve it (a commit's default branch, and
        // the records and passages a build makes depend on the address).
        const byCommit = new Map<string, Build>();
        for (const build of branches.map((branch) => live.get(branch)!)) if (!byCommit.has(build.commit)) byCommit.set(build.commit, build);
        for (const build of byCommit.values()) {
          if (stopped) return;
          const files = await repo.filesAt(build.commit);
          // The worker fills its caches on its own thread while this one remembers every file's parse from the kept
          // model (by path and text), so the first commit's whole-tree validation parses only what it changed.
          const worker = builder.warm({
            commit: build.commit,
            committedAt: new Date(build.committedAt),
            fileTimes: new Map(),
            siteUrl: build.siteUrl,
            files,
            ...(keptCommits.has(build.commit) ? { kept: builds.keptFile(build.commit) } : {}),
          });
          await rememberParses(build.model, files.texts, slicer());
          // ...and checks the tree once (from those parses), which the first commit's validation then starts from.
          await problemsOfContent(files.texts, slicer());
          await worker;
        }
      })().catch(() => {})
    : undefined;
  serving = true;
  askLater(); // the questions the served builds lack

  // The seam where a commit becomes a run. The local backend runs translate → build → deploy here, in the
  // service, for the commits it sees (its own, and pushes the watcher below notices); the github backend's runs
  // are GitHub Actions runs of .github/workflows/publish.yml, which this pipeline follows (actions-pipeline.server.ts):
  // a run that succeeded is built here from its commit and deployed, a failed one never is.
  const deploy = async (branch: Branch, build: Build) => {
    live.set(branch, build);
    deployed[branch] = build.commit;
    await writeFileAtomic(deployedFile, JSON.stringify(deployed, null, 2));
    // The vectors of text no longer served leave the embeddings file (once they are most of it).
    if (embeddings) {
      const served = [...live.values()].flatMap((b) => b.passages?.map(embeddingText) ?? []);
      void embeddings.compact(served).catch((error: unknown) => log(`[vitae] the embeddings file could not be compacted: ${(error as Error).message}`));
    }
    if (questionCache) {
      askLater(); // the questions the new build's passages lack
      // The questions of passages no longer served leave the file (once they are most of it).
      const served = [...live.values()].flatMap((b) => b.passages ?? []);
      void questionCache.compact(served).catch((error: unknown) => log(`[vitae] the questions file could not be compacted: ${(error as Error).message}`));
    }
  };
  const actions =
    config.REPO_BACKEND === 'github'
      ? createActionsPipeline({
          ...github!,
          build: buildAt,
          deploy,
          live: (branch) => live.get(branch)!.commit,
          log,
        })
      : undefined;
  const pipeline: Pipeline =
    actions ??
    (await createPipeline(dataDir, { translate: (branch, commit) => translateBranch(repo, models?.translate, branch, commit), build: buildAt, deploy }, log));
  await pipeline.recover();

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
    repo,
    corpus: { build: (branch) => live.get(branch)! },
    pipeline,
    ...(actions ? { githubEvent: (event: GitHubEvent) => actions.notice(event) } : {}),
    models,
    rateLimits,
    urls,
    secrets: { adminToken: adminToken.value, adminTokenGenerated: adminToken.generated, sessionSecret: sessionSecret.value },
    repoBackend: { name: config.REPO_BACKEND, configured: true },
    dataDir,
    startedAt: Date.now(),
    questionsSettled: async () => {
      for (let seen: Promise<void> | undefined; seen !== asking;) await (seen = asking);
    },
    async close() {
      clearInterval(timer);
      stopped = true;
      stopAsking.abort(); // the model's answers under way are dropped; what was kept stays
      await watching;
      await pipeline.stop();
      await asking;
      await builder.close(); // a warm-up under way is dropped
      await warming;
      serving = false; // the live builds the pipeline made are kept now, for the next start
      for (const build of live.values()) keepBuild(build);
      await builds.flush();
      await rateLimits.close();
    },
  };
}

/** A model's name as a file name. */
const safeFileName = (name: string) => name.replace(/[^\w.-]+/g, '_');

/** What a passage is embedded as (hybrid search). */
const embeddingText = (p: Passage) => [p.title, p.meta, p.text].filter(Boolean).join('\n');

/** The local backend: a bare git repository under DATA_DIR, seeded from CONTENT_DIR on first start. */
async function openLocal(config: Config, dataDir: string, log: (line: string) => void): Promise<ContentRepo> {
  const git = await openLocalRepo(join(dataDir, 'content.git'), log, observeGitCommand);
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
