// The editor's keyboard outside CodeMirror: Escape closes the open panel or question, and the shortcuts work in the
// form as in the source (where CodeMirror has handled them already, so they are not run twice).
import { useEffect, useRef } from 'react';

export function useEditorKeys(options: {
  /** Something Escape closes is open (a side panel, the delete question). */
  closable: boolean;
  close(): void;
  canSave: boolean;
  /** Mod-S: keep the text in the change set now. */
  save(): void;
  /** Mod-Enter: go to review and commit. */
  review(): void;
}) {
  // Read when a key is pressed, so the listener is added once and always sees this render's state.
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { closable, close, canSave, save, review } = latest.current;
      if (event.key === 'Escape' && closable) close();
      if (!(event.metaKey || event.ctrlKey) || event.defaultPrevented) return;
      if (event.key === 's') {
        event.preventDefault();
        if (canSave) save();
      } else if (event.key === 'Enter') {
        event.preventDefault();
        review();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
