// The editor's check of the unsaved text against the whole tree as it would be, as it is typed (debounced, and
// each check cancelled by the next keystroke). A file marked for deletion has no text to check.
import { useCallback, useEffect, useState } from 'react';
import { callOperation, troubleOf, type Trouble } from './api.ts';
import type { ProblemOut } from './types.ts';
import type { Branch } from './ui.tsx';

const VALIDATE_DELAY_MS = 300;

export interface LiveValidation {
  /** The last answer's problems; null until the first answer. */
  problems: ProblemOut[] | null;
  validating: boolean;
  /** Why the last check could not be made, until it is dismissed or a check succeeds. */
  trouble: Trouble | null;
  dismissTrouble(): void;
}

export function useLiveValidation({ path, branch, text, enabled }: { path: string; branch: Branch; text: string; enabled: boolean }): LiveValidation {
  const [problems, setProblems] = useState<ProblemOut[] | null>(null);
  const [validating, setValidating] = useState(false);
  const [trouble, setTrouble] = useState<Trouble | null>(null);

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setValidating(true);
      callOperation('admin_validate', { path, content: text, branch }, controller.signal)
        .then((result) => {
          if (controller.signal.aborted) return; // the text has changed since: its own check is on its way
          setProblems(result.problems);
          setTrouble(null);
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) setTrouble(troubleOf(error));
        })
        .finally(() => !controller.signal.aborted && setValidating(false));
    }, VALIDATE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
      setValidating(false);
    };
  }, [text, path, branch, enabled]);

  const dismissTrouble = useCallback(() => setTrouble(null), []);
  return { problems, validating, trouble, dismissTrouble };
}
