// The live build of each branch, and how a commit's build is made: taken from the branch that serves the same
// commit, loaded from the builds kept by commit (operations/corpus/persist.ts), or made from the commit's files
// (validated here in slices, passages and index made in the worker thread, builder.server.ts). A deploy replaces a
// branch's build in one assignment and records its commit in DATA_DIR/deployed.json, which the next start serves.
import { join } from 'node:path';
import { AppError } from '../contract/errors.ts';
import { branches, type Branch } from '../contract/shared.ts';
import { createBuild, type Build } from '../corpus/corpus.ts';
import { slicer } from '../content/pause.ts';
import { openBuildStore, restoreBuild, type BuildStore } from '../corpus/persist.ts';
import { forgetTermCounts } from '../corpus/term-counts.ts';
import { formatProblem, irregularProblems, loadContentSliced, problemsOfContent } from '../content/tree.ts';
import { rememberParses } from '../content/kept-parses.ts';
import type { ContentRepo } from '../repo/content-repo.server.ts';
import { mediaPathsOf, missingImageProblems } from '../content/media-refs.ts';
import type { MediaLibrary } from './media-library.server.ts';
import { createBuilder, type Builder } from './builder.server.ts';
import { readJson, writeFileAtomic } from './files.server.ts';
import { lastPublished } from './actions-pipeline.server.ts';
import { timedBuild } from './metrics.server.ts';
import type { SearchExtras } from './search-extras.server.ts';
import { StartupError } from './startup-error.server.ts';

export interface LiveBuilds {
  /** A commit's build for a branch, timed for /metrics (`vitae_build_duration_seconds`). */
  buildAt(branch: Branch, commit: string): Promise<Build>;
  /**
   * Serves what was deployed last; with nothing deployed yet, the commit the newest successful Actions run published
   * (github) or the newest valid commit of the branch (an outside push may be invalid).
   */
  serveDeployed(github?: GitHubRuns): Promise<void>;
  /** The service answers from now on: builds are made in the worker, and it warms up from the builds loaded. */
  startServing(): void;
  /** Makes `build` the branch's live build and records it as deployed. */
  deploy(branch: Branch, build: Build): Promise<void>;
  /** Stops the warm-up at its next commit. */
  stop(): void;
  /** Stops the worker and keeps the live builds for the next start. */
  close(): Promise<void>;
}

/** Where the github backend's Actions runs are read (the commit a run published is served first). */
export interface GitHubRuns {
  token: string;
  repository: string;
  apiUrl: string;
}

/** What making, keeping and serving builds share. */
interface BuildsState {
  live: Map<Branch, Build>;
  repo: ContentRepo;
  siteUrl: (branch: Branch) => string;
  extras: SearchExtras;
  log: (line: string) => void;
  /** The images' facts a build reads (and fails on an image that cannot be read). */
  media: MediaLibrary;
  builds: BuildStore;
  builder: Builder;
  /** Commits whose build is kept (or being kept) on disk. */
  keptCommits: Set<string>;
  /** Whether the service answers requests: builds are then made in the worker, and kept only at a stop. */
  serving: boolean;
  deployed: Partial<Record<Branch, string>>;
  deployedFile: string;
  stopped: boolean;
  warming?: Promise<void>;
}

export async function openLiveBuilds(options: {
  dataDir: string;
  repo: ContentRepo;
  siteUrl: (branch: Branch) => string;
  extras: SearchExtras;
  /** The live build of each branch (shared with the search extras, which add questions to them). */
  live: Map<Branch, Build>;
  log: (line: string) => void;
  media: MediaLibrary;
}): Promise<LiveBuilds> {
  const { dataDir, log } = options;
  const deployedFile = join(dataDir, 'deployed.json');
  const deployed = await readJson<Partial<Record<Branch, string>>>(deployedFile, {});
  // Builds kept by commit: a restart, or the pipeline after one, loads the build of a commit it made before instead
  // of making it again.
  const builds = await openBuildStore(join(dataDir, 'builds'), { log });
  const state: BuildsState = {
    ...options,
    builds,
    builder: createBuilder({ log }),
    keptCommits: new Set(),
    serving: false,
    deployed,
    deployedFile,
    stopped: false,
  };
  const buildAt = (branch: Branch, commit: string): Promise<Build> => timedBuild(() => makeBuild(state, branch, commit));
  return {
    buildAt,
    serveDeployed: (github) => serveDeployed(state, buildAt, github),
    startServing() {
      state.warming = state.builds.counts.loaded ? warmUp(state).catch(() => {}) : undefined;
      state.serving = true;
    },
    async deploy(branch, build) {
      state.live.set(branch, build);
      state.deployed[branch] = build.commit;
      await writeFileAtomic(deployedFile, JSON.stringify(state.deployed, null, 2));
      state.extras.deployed();
    },
    stop() {
      state.stopped = true;
    },
    async close() {
      await state.builder.close(); // a warm-up under way is dropped
      await state.warming;
      state.serving = false; // the live builds the pipeline made are kept now, for the next start
      for (const build of state.live.values()) keepBuild(state, build);
      await builds.flush();
    },
  };
}

/**
 * Keeps a build on disk, when the service is not answering yet (made at start) or no longer (at a stop): writing
 * serialises it on the main thread, which held requests for 0.2 s at 10× after every commit. After a crash the next
 * start makes the last deployed build again, as every start did before builds were kept.
 */
function keepBuild(state: BuildsState, build: Build): void {
  if (state.serving || state.keptCommits.has(build.commit)) return;
  state.keptCommits.add(build.commit);
  void state.builds
    .save(build)
    .then(() => state.builds.prune([...state.live.values()].map((b) => b.commit)))
    .catch((error: unknown) => state.log(`[vitae] kept builds could not be pruned: ${(error as Error).message}`));
}

async function makeBuild(state: BuildsState, branch: Branch, commit: string): Promise<Build> {
  const { extras } = state;
  const sibling = [...state.live.values()].find((build) => build.commit === commit);
  if (sibling) {
    // Another branch serves this commit: its model (valid, the same content) and its index are shared.
    return createBuild(sibling.model, {
      commit,
      committedAt: new Date(sibling.committedAt),
      builtAt: new Date(sibling.builtAt),
      fileTimes: sibling.fileTimes,
      siteUrl: state.siteUrl(branch),
      pause: slicer(),
      sibling,
      keepPassages: extras.keepPassages,
    })
      .then(extras.withQuestions)
      .then(extras.withHybrid);
  }
  const kept = await state.builds.load(commit);
  if (kept) state.keptCommits.add(commit);
  if (kept) {
    try {
      // with its passages (the index holds them anyway): the warm-up tokenises them
      const media = await state.media.factsAt(commit);
      return await extras.withHybrid(
        await extras.withQuestions(await restoreBuild(kept, { siteUrl: state.siteUrl(branch), pause: slicer(), keepPassages: true, media })),
      );
    } catch (error) {
      state.log(`[vitae] the kept build of ${commit.slice(0, 7)} does not fit this content (${(error as Error).message}); building it again`);
    }
  }
  const build = await buildFromFiles(state, branch, commit);
  keepBuild(state, build);
  return extras.withHybrid(await extras.withQuestions(build));
}

/**
 * A commit's build from its files. They are loaded and validated here, in slices (their parse is cached here: the
 * commit's validation made it); the passages and the search index are made in the worker thread, which sends the
 * passages that changed since the branch's live build and the index as data. This thread makes each locale's
 * records, in slices, as for a kept build.
 */
async function buildFromFiles(state: BuildsState, branch: Branch, commit: string): Promise<Build> {
  const { repo } = state;
  const siteUrl = state.siteUrl(branch);
  const [files, committedAt, fileTimes] = await Promise.all([repo.filesAt(commit), repo.committedAt(commit), repo.fileTimes(commit)]);
  const pause = slicer();
  const loaded = await loadContentSliced(files.texts, pause);
  const problems = [...loaded.problems, ...irregularProblems(files.tree), ...missingImageProblems(files.texts, mediaPathsOf(files.tree))];
  if (!loaded.model || problems.length) {
    throw new AppError(
      'invalid',
      `the content at ${commit.slice(0, 7)} is invalid: ${problems.slice(0, 5).map(formatProblem).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`,
      { errors: problems },
    );
  }
  // An image that cannot be read fails the build, naming it, as any other problem does.
  const media = await state.media.factsAt(commit);
  if (!state.serving) {
    // Before the service answers (a start with no kept build), on this thread: nothing waits for it, it is
    // faster without the transfer, and a start that needs no worker does not pay its memory.
    return createBuild(loaded.model, { commit, committedAt, fileTimes, siteUrl, keepPassages: true, media });
  }
  const current = state.live.get(branch);
  const made = await state.builder.make(
    {
      commit,
      committedAt,
      fileTimes,
      siteUrl,
      files,
      model: loaded.model,
      ...(current?.passages ? { base: { commit: current.commit, siteUrl: current.siteUrl, passages: current.passages } } : {}),
    },
    pause,
  );
  if ('problems' in made) throw new AppError('invalid', `the content at ${commit.slice(0, 7)} is invalid`, { errors: made.problems });
  // Its passages stay on the build (the index holds them anyway): keeping the build needs them.
  return restoreBuild(made.kept, { siteUrl, pause, keepPassages: true, media });
}

// Serve what was deployed last; a newer head is published by the pipeline, not at start. With nothing deployed
// yet, serve the newest valid commit of the branch (an outside push may be invalid). github: the commit the newest
// successful Actions run published comes first, so that a new instance never starts on a commit whose run failed
// (the newest valid commit only when no run has succeeded yet).
async function serveDeployed(state: BuildsState, buildAt: LiveBuilds['buildAt'], github: GitHubRuns | undefined): Promise<void> {
  const { live, deployed, repo } = state;
  // A restart loads kept builds, and the worker then warms up from them (from main's, when both branches serve one
  // commit): it starts now, and reads that build while this thread restores its own copy.
  if (deployed.main) state.builder.start(state.builds.keptFile(deployed.main));
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
  await writeFileAtomic(state.deployedFile, JSON.stringify(deployed, null, 2));
  // What the builds made here counted is not needed here again: from now on the build worker makes builds.
  forgetTermCounts();
}

/**
 * A loaded build neither read and validated the commit's files nor split and counted its text, which the next
 * build (the first commit after a restart) would then do cold. Both are done once in the background as the start
 * ends: this thread remembers every file's parse from the kept model (whole-tree validation of a commit runs here),
 * and the worker reads the kept build itself and fills its caches. (Waiting longer leaves a commit made at once to
 * meet both cold, which held requests for over a second at 10×.)
 */
async function warmUp(state: BuildsState): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  // One warm-up per commit, at main's address when both branches serve it (a commit's default branch, and
  // the records and passages a build makes depend on the address).
  const byCommit = new Map<string, Build>();
  for (const build of branches.map((branch) => state.live.get(branch)!)) if (!byCommit.has(build.commit)) byCommit.set(build.commit, build);
  for (const build of byCommit.values()) {
    if (state.stopped) return;
    const files = await state.repo.filesAt(build.commit);
    // The worker fills its caches on its own thread while this one remembers every file's parse from the kept
    // model (by path and text), so the first commit's whole-tree validation parses only what it changed.
    const worker = state.builder.warm({
      commit: build.commit,
      committedAt: new Date(build.committedAt),
      fileTimes: new Map(),
      siteUrl: build.siteUrl,
      files,
      ...(state.keptCommits.has(build.commit) ? { kept: state.builds.keptFile(build.commit) } : {}),
    });
    await rememberParses(build.model, files.texts, slicer());
    // ...and checks the tree once (from those parses), which the first commit's validation then starts from.
    await problemsOfContent(files.texts, slicer());
    await worker;
  }
}
