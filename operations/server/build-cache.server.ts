// Answers of pure reads kept per build (invoke's memo, for every surface): values by key under the build they were made
// from; when a value of a new build is kept, the builds no longer live on any branch are dropped. At most
// MAX values and MAX_BYTES (keys and values together) a build: past either the build's values are dropped at once
// (a bound, not an eviction policy), so keys a stranger makes up cannot pin memory until the next build.
import { branches, type Branch } from '../contract/shared.ts';
import type { Corpus } from './services.server.ts';

/** The builds the branches serve, for the per-build memo of pure operations. */
/** Whose site a build is (what /openapi.json names as its contact). */
type SiteSubject = ReturnType<Corpus['build']>['model']['site']['subject'];

export interface ServedBuilds {
  /** The id of the build a branch serves now. */
  id(branch: Branch): string;
  /** The ids of every build some branch serves (the memo drops the others). */
  live(): readonly string[];
  /** Whether answers made from now on may be kept (see build-cache.server.ts `keepable`): call before, read after. */
  keepable(branch: Branch): () => boolean;
  /** The build a branch serves as the web's surfaces name it: its id, when its commit was made, and whose site it is. */
  served(branch: Branch): { id: string; committedAt: string; site: { name: string; subject: SiteSubject } };
}

export class BuildCache<V> {
  private readonly byBuild = new Map<string, { entries: Map<string, V>; bytes: number }>();
  static readonly MAX = 5000;
  static readonly MAX_BYTES = 32 * 1024 * 1024;

  /** `sizeOf` tells a value's bytes (default: its length when it has one, else nothing beyond the key). */
  constructor(private readonly sizeOf: (value: V) => number = (value) => (value as { length?: number } | null)?.length ?? 0) {}

  get(buildId: string, key: string): V | undefined {
    return this.byBuild.get(buildId)?.entries.get(key);
  }

  /** Counts `bytes` more for a build's values (a kept value grew: an encoding made for it later); past the bound its values go. */
  grow(buildId: string, bytes: number): void {
    const kept = this.byBuild.get(buildId);
    if (!kept) return;
    kept.bytes += bytes;
    if (kept.bytes > BuildCache.MAX_BYTES) {
      kept.entries.clear();
      kept.bytes = 0;
    }
  }

  set(buildId: string, key: string, value: V, live: readonly string[]): void {
    let kept = this.byBuild.get(buildId);
    if (!kept) {
      for (const id of this.byBuild.keys()) if (!live.includes(id)) this.byBuild.delete(id);
      this.byBuild.set(buildId, (kept = { entries: new Map(), bytes: 0 }));
    }
    const bytes = key.length * 2 + this.sizeOf(value); // a string's characters are two bytes each in V8 at most
    if (kept.entries.size >= BuildCache.MAX || kept.bytes + bytes > BuildCache.MAX_BYTES) {
      kept.entries.clear();
      kept.bytes = 0;
    }
    if (bytes > BuildCache.MAX_BYTES) return;
    kept.entries.set(key, value);
    kept.bytes += bytes;
  }

  /** Bytes kept for a build (keys and values): for tests. */
  bytesOf(buildId: string): number {
    return this.byBuild.get(buildId)?.bytes ?? 0;
  }
}

/**
 * Whether answers made from now on may be kept: not if the build's hybrid search fell back to BM25 alone
 * meanwhile (its model unreachable), since that answer is worse than the build's own and would be kept for
 * the build's life. Call at the start of the work; the result, after it.
 */
export function keepable(build: { hybrid?: { readonly failures: number } }): () => boolean {
  const failures = build.hybrid?.failures ?? 0;
  return () => (build.hybrid?.failures ?? 0) === failures;
}

/**
 * The one rule for keeping an answer (invoke's answers of pure operations and a surface's alike): read `build` before
 * the work, and keep what it made for that build only if, after it, `steady()`: the branch still serves that build (an
 * answer made while a new one arrived may hold either's facts, and one kept for a build no longer served is never read
 * and holds memory) and the build's hybrid search did not fall back to BM25 alone meanwhile (`keepable`).
 */
export function steadyBuild(builds: ServedBuilds, branch: Branch): { build: string; steady: () => boolean } {
  const build = builds.id(branch);
  const keepable = builds.keepable(branch);
  return { build, steady: () => keepable() && builds.id(branch) === build };
}

/** The builds a corpus serves, as the memo of `invoke` reads them. */
export function servedBuilds(corpus: Pick<Corpus, 'build'>): ServedBuilds {
  return {
    id: (branch) => corpus.build(branch).id,
    live: () => branches.map((branch) => corpus.build(branch).id),
    keepable: (branch) => keepable(corpus.build(branch)),
    served: (branch) => {
      const { id, committedAt, model } = corpus.build(branch);
      return { id, committedAt, site: model.site };
    },
  };
}
