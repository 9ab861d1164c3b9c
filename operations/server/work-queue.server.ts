// The anonymous work that costs CPU — a page rendered because no cached copy exists, a search or another pure
// read answered for the first time — runs one at a time, in the order asked, service-wide, each started on a
// turn of the event loop of its own. A flood of made-up addresses or queries then waits its turn (and past a
// bounded queue is told 503 to come back) instead of running back to back ahead of everything read with it, so
// a reader of kept pages waits for one piece of work at most, not for the flood. Once the queue is half full, one
// client address (an IPv6 client by its /64) may hold only a few places, running or waiting: past them it is told
// 429, so a flood from one client cannot fill the queue that every other visitor's first page waits in (and a
// client's burst on a quiet site, a crawler's or a benchmark's, is never refused).
import { AppError, rateLimited } from '../contract/errors.ts';
import { addressGroup } from './address-group.server.ts';
import { countThrottled } from './metrics.server.ts';

export interface WorkQueueOptions {
  /**
   * How many run at once. Default one: the work is mostly synchronous on the one event loop, so a second at once
   * only interleaves two renders ahead of a reader (`npm run bench -- flood`: the reader's p99 under a flood was
   * 56 ms with two, 14–18 ms with one, and the flood itself was answered faster with one).
   */
  concurrency?: number;
  /** How many may wait; one more is refused (503 with Retry-After). */
  waiting?: number;
  /** Once half the waiting places are taken, how many one client address may hold; one more is refused (429 with Retry-After). */
  perAddress?: number;
}

export type WorkQueue = ReturnType<typeof createWorkQueue>;

export function createWorkQueue({ concurrency = 1, waiting = 256, perAddress = 8 }: WorkQueueOptions = {}) {
  let running = 0;
  const queue: Array<() => void> = [];
  const held = new Map<string, number>(); // places held per client address (group), running or waiting

  /**
   * Runs `work` when a place is free; throws 429 `rate_limited` when `address` holds its share already, 503
   * `unavailable` when the queue is full.
   */
  async function run<T>(work: () => Promise<T>, address?: string): Promise<T> {
    const client = address === undefined ? undefined : addressGroup(address);
    if (client !== undefined) {
      const holding = held.get(client) ?? 0;
      if (holding >= perAddress && queue.length >= waiting / 2) {
        countThrottled('work');
        throw rateLimited('Too many requests from this address at once; wait for the answers, then ask again.', 1);
      }
      held.set(client, holding + 1);
    }
    try {
      return await take(work);
    } finally {
      if (client !== undefined) {
        const holding = held.get(client)! - 1;
        if (holding) held.set(client, holding);
        else held.delete(client);
      }
    }
  }

  async function take<T>(work: () => Promise<T>): Promise<T> {
    if (running < concurrency) {
      running++;
      // Started after the requests already read have had their turn: most of this work is synchronous (a render,
      // a search), and a reader of a kept page must not wait behind every one that arrived with it.
      await new Promise((resolve) => setImmediate(resolve));
    } else {
      if (queue.length >= waiting)
        throw new AppError('unavailable', 'The site is busy answering other requests; try again in a moment.', { headers: { 'Retry-After': '1' } });
      await new Promise<void>((resolve) => queue.push(resolve)); // the place is handed over by the one finishing
    }
    try {
      return await work();
    } finally {
      const next = queue.shift();
      // The next one starts after pending I/O (a reader's request) has had its turn on the event loop.
      if (next) setImmediate(next);
      else running--;
    }
  }

  return { run, figures: () => ({ running, waiting: queue.length, concurrency, addresses: held.size }) };
}
