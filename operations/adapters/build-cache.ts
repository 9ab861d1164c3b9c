// Answers of pure reads kept per build (REST and MCP alike): values by key under the build they were made
// from; when a value of a new build is kept, the builds no longer live on any branch are dropped. At most
// MAX values a build: past that the build's values are dropped at once (a bound, not an eviction policy).
import { cacheCounters } from '../server/metrics.server.ts';

export class BuildCache<V> {
  private readonly byBuild = new Map<string, Map<string, V>>();
  private static readonly MAX = 5000;
  private readonly counts?: ReturnType<typeof cacheCounters>;

  /** A named cache counts its hits and misses in /metrics (`vitae_cache_hits_total{cache}`). */
  constructor(name?: 'rest' | 'mcp') {
    if (name) this.counts = cacheCounters(name);
  }

  get(buildId: string, key: string): V | undefined {
    const value = this.byBuild.get(buildId)?.get(key);
    if (value === undefined) this.counts?.miss();
    else this.counts?.hit();
    return value;
  }

  set(buildId: string, key: string, value: V, live: readonly string[]): void {
    let entries = this.byBuild.get(buildId);
    if (!entries) {
      for (const id of this.byBuild.keys()) if (!live.includes(id)) this.byBuild.delete(id);
      this.byBuild.set(buildId, (entries = new Map()));
    }
    if (entries.size >= BuildCache.MAX) entries.clear();
    entries.set(key, value);
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
