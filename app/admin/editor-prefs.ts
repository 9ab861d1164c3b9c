// What the editor remembers of the person using it, in this browser: the view they prefer (the form or the source),
// whether they chose to edit main (the live site) this session, and whether the screen is wide enough to edit on.
// Read through useSyncExternalStore, so the server's render and the browser's first one agree and the browser's
// own value follows at once.
import { useCallback, useSyncExternalStore } from 'react';

export type EditorViewName = 'form' | 'source';

const VIEW_KEY = 'vitae-console:view';
const MAIN_KEY = 'vitae-console:edit-main';
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

function read(storage: 'localStorage' | 'sessionStorage', key: string): string | null {
  try {
    return window[storage].getItem(key);
  } catch {
    return null; // storage disabled: the defaults hold
  }
}
function write(storage: 'localStorage' | 'sessionStorage', key: string, value: string) {
  try {
    window[storage].setItem(key, value);
  } catch {
    // storage disabled: the choice holds for this page only
  }
  notify();
}

/** The form by default; the source once chosen, until the form is chosen again. */
export function useEditorView(): [EditorViewName, (view: EditorViewName) => void] {
  const view = useSyncExternalStore(
    subscribe,
    () => (read('localStorage', VIEW_KEY) === 'source' ? 'source' : 'form'),
    () => 'form' as const,
  );
  return [view, useCallback((next: EditorViewName) => write('localStorage', VIEW_KEY, next), [])];
}

/** Whether the editor chose, this session, to edit main directly (a commit there goes live without a preview). */
export function useMainUnlocked(): [boolean, () => void] {
  const unlocked = useSyncExternalStore(
    subscribe,
    () => read('sessionStorage', MAIN_KEY) === 'yes',
    () => false,
  );
  return [unlocked, useCallback(() => write('sessionStorage', MAIN_KEY, 'yes'), [])];
}

const NARROW = '(max-width: 1023px)';

/** Below 1024 pixels the console shows files but does not edit them. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const query = window.matchMedia(NARROW);
      query.addEventListener('change', listener);
      return () => query.removeEventListener('change', listener);
    },
    () => window.matchMedia(NARROW).matches,
    () => false,
  );
}
