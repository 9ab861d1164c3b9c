// A bounded memo for pure functions of a string. Builds are made again for every commit, yet most of their
// text did not change: remembering what a passage tokenised or split into makes a rebuild cost what changed.
// When full, the oldest half is dropped (insertion order), so memory stays bounded under any content.

export function memoize<T>(fn: (key: string) => T, maxEntries: number): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = fn(key);
      if (cache.size >= maxEntries) {
        let drop = Math.ceil(maxEntries / 2);
        for (const old of cache.keys()) {
          cache.delete(old);
          if (--drop === 0) break;
        }
      }
      cache.set(key, value);
    }
    return value;
  };
}
