// A map that holds at most `max` entries and drops the least recently used first: the policy several caches share,
// written once. It rests on a Map's insertion order: a use moves an entry to the end, so the oldest is always first.

export class LruMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly max: number) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The value under `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key)!;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** The value under `key`, leaving the order of use as it was. */
  peek(key: K): V | undefined {
    return this.#entries.get(key);
  }

  /** Keeps `value` under `key` as the most recently used, dropping the least recently used past `max`. */
  set(key: K, value: V): this {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
    return this;
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }
}
