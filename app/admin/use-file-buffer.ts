// The editor's buffer: the text of one file as it is being edited, and how it is kept in the change set. The
// server and the first render in the browser show the file as the branch has it; the edit kept in this browser (if
// any) is restored once the editor mounts, so the two renders agree. Every edit is kept (debounced) so nothing typed
// is lost, and what is still waiting is written at once when the editor goes away.
import { useRevalidator } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState, type MutableRefObject } from 'react';
import { readChanges, type PendingChange } from './change-set.ts';

const SAVE_DELAY_MS = 250;

export interface FileBuffer {
  text: string;
  /** The text as of the last change, for callbacks that outlive a render (CodeMirror's, the shortcuts'). */
  textRef: MutableRefObject<string>;
  /** Sets the text from a change the page did not make itself (CodeMirror's own). */
  changed(value: string): void;
  /** The edit restored from this browser when the editor opened, until it is discarded. */
  restored: PendingChange | null;
  forgetRestored(): void;
  /** When this editor last kept the text in the change set. */
  savedAt: number | null;
  /** Keeps a text in the change set now (Mod-S, or a debounced edit). */
  keep(value: string): void;
}

export function useFileBuffer({
  path,
  branch,
  base,
  saved,
  pending,
  save,
  hydrated,
  deleted,
}: {
  path: string;
  branch: string;
  /** What an edit of this file starts from: its sha and text on the branch. */
  base: PendingChange['base'];
  /** The text the file has on the branch (or a new file's template). */
  saved: string;
  /** The file's edit in the change set, if any. */
  pending: PendingChange | undefined;
  save(change: Omit<PendingChange, 'updatedAt'>): void;
  hydrated: boolean;
  deleted: boolean;
}): FileBuffer {
  const [text, setTextState] = useState(saved);
  const textRef = useRef(text);
  const [restored, setRestored] = useState<PendingChange | null>(null);
  const [savedAt, setSavedAt] = useState<number | null>(null);

  const keep = useCallback(
    (value: string) => {
      save({ path, base: pending?.base ?? base, content: value });
      setSavedAt(Date.now());
    },
    [save, path, pending?.base, base],
  );
  const keepRef = useRef(keep);
  keepRef.current = keep;

  // The edit kept in this browser, if there is one, once the page is hydrated.
  useEffect(() => {
    const kept = readChanges(branch)[path];
    if (!kept) return;
    const start = kept.content ?? saved;
    setRestored(kept);
    setTextState(start);
    textRef.current = start;
    // Once per file: the route keys the editor by path.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useKeptAsTyped({ text, textRef, keep, keepRef, pending, saved, hydrated, deleted });

  const changed = useCallback((value: string) => {
    textRef.current = value;
    setTextState(value);
  }, []);
  const forgetRestored = useCallback(() => setRestored(null), []);
  const stableKeep = useCallback((value: string) => keepRef.current(value), []);
  return { text, textRef, changed, restored, forgetRestored, savedAt, keep: stableKeep };
}

/** Keeps every edit in the change set (debounced), and writes what is still waiting when the editor goes away. */
function useKeptAsTyped({
  text,
  textRef,
  keep,
  keepRef,
  pending,
  saved,
  hydrated,
  deleted,
}: {
  text: string;
  textRef: MutableRefObject<string>;
  keep(value: string): void;
  keepRef: MutableRefObject<(value: string) => void>;
  pending: PendingChange | undefined;
  saved: string;
  hydrated: boolean;
  deleted: boolean;
}) {
  const unsaved = useRef<string | null>(null);
  // An edit that left the change set from elsewhere (committed or discarded in another tab) while this editor shows
  // it is not typed again: the page's data is read anew, and only a new keystroke is a new edit.
  const { revalidate } = useRevalidator();
  const revalidateRef = useRef(revalidate);
  revalidateRef.current = revalidate;
  const lastPending = useRef(pending);
  const settled = useRef<string | null>(null);
  useEffect(() => {
    const before = lastPending.current;
    lastPending.current = pending;
    if (before?.content != null && !pending && textRef.current === before.content) {
      settled.current = before.content;
      revalidateRef.current();
    }
  }, [pending, textRef]);
  useEffect(() => {
    if (!hydrated || deleted || text === (pending?.content ?? saved) || text === settled.current) {
      unsaved.current = null;
      return;
    }
    unsaved.current = text;
    const timer = setTimeout(() => {
      unsaved.current = null;
      keep(text);
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, keep, pending?.content, saved, deleted, hydrated]);
  useEffect(() => {
    const flush = () => {
      if (unsaved.current !== null) keepRef.current(unsaved.current);
      unsaved.current = null;
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [keepRef]);
}
