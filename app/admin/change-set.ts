// The editor's pending edits: every file touched in the console, per branch, kept in the browser's
// localStorage as it is typed, so a reload or a crash loses nothing. Nothing here is written to the
// repository: the review screen commits the whole set as one commit, each file with the sha it started from.
import { useCallback, useSyncExternalStore } from 'react';
import { forgetImages, keptImage } from './media-store.ts';

export interface PendingChange {
  path: string;
  /** What the edit started from: the file's blob sha then (null for a new file) and its text. */
  base: { sha: string | null; content: string | null };
  /** The new text, or null to delete the file ('' for an image: its bytes are kept in media-store.ts). */
  content: string | null;
  /** An image under content/media/ (its bytes in this browser's IndexedDB): its type, size and a small thumbnail. */
  image?: { type: string; size: number; thumb: string };
  /** When it was last changed (ms since the epoch). */
  updatedAt: number;
}

export type ChangeSet = Readonly<Record<string, PendingChange>>;

const PREFIX = 'vitae-console:changes:';
const storageKey = (branch: string) => `${PREFIX}${branch}`;
const listeners = new Set<() => void>();
const snapshots = new Map<string, { raw: string | null; value: ChangeSet }>();
const EMPTY: ChangeSet = Object.freeze({});

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined; // storage disabled: edits still work for this page, they just do not survive a reload
  }
}

/** The change set of a branch; the same object until it changes (as useSyncExternalStore needs). */
export function readChanges(branch: string): ChangeSet {
  const raw = storage()?.getItem(storageKey(branch)) ?? null;
  const cached = snapshots.get(branch);
  if (cached && cached.raw === raw) return cached.value;
  let value: ChangeSet;
  try {
    value = raw ? (JSON.parse(raw) as ChangeSet) : EMPTY;
  } catch {
    value = EMPTY; // not ours, or cut short: start empty rather than fail the console
  }
  snapshots.set(branch, { raw, value });
  return value;
}

function write(branch: string, next: ChangeSet): void {
  const store = storage();
  if (store) {
    if (Object.keys(next).length) store.setItem(storageKey(branch), JSON.stringify(next));
    else store.removeItem(storageKey(branch));
  } else {
    snapshots.set(branch, { raw: JSON.stringify(next), value: next });
  }
  for (const listener of listeners) listener();
}

/** Records an edit. An edit that brings a file back to its base text removes it from the set. */
export function saveChange(branch: string, change: Omit<PendingChange, 'updatedAt'>): void {
  const { [change.path]: _previous, ...rest } = readChanges(branch);
  if (change.content === change.base.content) return write(branch, rest);
  write(branch, { ...rest, [change.path]: { ...change, updatedAt: Date.now() } });
}

export function discardChange(branch: string, path: string): void {
  const { [path]: gone, ...rest } = readChanges(branch);
  write(branch, rest);
  if (gone?.image) forgetImages(branch, [path]);
}

/** Forgets the given paths (all when none are given), e.g. after they were committed. */
export function clearChanges(branch: string, paths?: string[]): void {
  const images = Object.values(readChanges(branch))
    .filter((c) => c.image && (!paths || paths.includes(c.path)))
    .map((c) => c.path);
  forgetImages(branch, images);
  if (!paths) return write(branch, {});
  const next = { ...readChanges(branch) };
  for (const path of paths) delete next[path];
  write(branch, next);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab of the console changed the set.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(PREFIX)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The pending edits of a branch, kept in step with storage and with other tabs. Empty while rendering on the server. */
export function useChangeSet(branch: string) {
  const changes = useSyncExternalStore(
    subscribe,
    () => readChanges(branch),
    () => EMPTY,
  );
  return {
    changes,
    save: useCallback((change: Omit<PendingChange, 'updatedAt'>) => saveChange(branch, change), [branch]),
    discard: useCallback((path: string) => discardChange(branch, path), [branch]),
    clear: useCallback((paths?: string[]) => clearChanges(branch, paths), [branch]),
  };
}

/**
 * The change set as the commit operations take it: each file with the sha it started from, an image with its bytes
 * (`images`, base64 by path: see changesWithImages).
 */
export const asChanges = (changes: readonly PendingChange[], images: ReadonlyMap<string, string> = new Map()) =>
  changes.map((c) => {
    if (c.content === null) return { path: c.path, delete: true as const, ...(c.base.sha ? { sha: c.base.sha } : {}) };
    if (!c.image) return { path: c.path, content: c.content, sha: c.base.sha };
    const contentBase64 = images.get(c.path);
    if (contentBase64 === undefined) throw new Error(`This browser no longer has the image ${c.path}: discard it and add it again.`);
    return { path: c.path, contentBase64, sha: c.base.sha };
  });

/** Whether a change set holds an image (committed from the browser at the REST route, not through the review form). */
export const hasImages = (changes: readonly PendingChange[]) => changes.some((c) => c.image);

/** The change set as the commit operations take it, each image's bytes read from this browser's IndexedDB. */
export async function changesWithImages(branch: string, changes: readonly PendingChange[]) {
  const images = new Map<string, string>();
  for (const c of changes) {
    const bytes = c.image ? await keptImage(branch, c.path) : undefined;
    if (bytes !== undefined) images.set(c.path, bytes);
  }
  return asChanges(changes, images);
}

const MESSAGE_PREFIX = 'vitae-console:message:';

/** The commit message being written for a branch, kept in this browser until it is committed (a reload keeps it). */
export function useDraftMessage(branch: string): [string, (message: string) => void] {
  const key = `${MESSAGE_PREFIX}${branch}`;
  const message = useSyncExternalStore(
    subscribe,
    () => storage()?.getItem(key) ?? '',
    () => '',
  );
  const set = useCallback(
    (next: string) => {
      const store = storage();
      if (next) store?.setItem(key, next);
      else store?.removeItem(key);
      for (const listener of listeners) listener();
    },
    [key],
  );
  return [message, set];
}
