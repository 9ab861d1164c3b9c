// The Review screen's check of the whole change set against the branch, before the commit button is enabled:
// admin_validate_changes of every pending edit at once (the problems a commit would be refused for, and the
// translations a deleted source takes with it), again whenever the set changes.
import { useEffect, useState } from 'react';
import { callOperation, troubleOf, type Trouble } from './api.ts';
import { changesWithImages, type PendingChange } from './change-set.ts';
import type { ChangeSetCheckOut, ProblemOut } from './types.ts';

export interface ChangeSetCheck {
  /** moved: a file changed on the branch since it was edited; the commit opens the three-way merge for it. */
  state: 'idle' | 'checking' | 'valid' | 'invalid' | 'moved' | 'failed';
  /** The change set this answer is about: an answer for an earlier set says nothing of this one. */
  of?: readonly PendingChange[];
  problems?: ProblemOut[];
  files?: ChangeSetCheckOut['files'];
  trouble?: Trouble;
}

const CHECK_DELAY_MS = 200;

export function useChangeSetCheck(branch: 'main' | 'dev', list: readonly PendingChange[]): ChangeSetCheck {
  const [check, setCheck] = useState<ChangeSetCheck>({ state: 'idle' });
  useEffect(() => {
    if (!list.length) return setCheck({ state: 'idle' });
    setCheck((previous) => ({ ...previous, state: 'checking' }));
    const controller = new AbortController();
    const timer = setTimeout(() => {
      changesWithImages(branch, list)
        .then((changes) => callOperation('admin_validate_changes', { branch, changes }, controller.signal))
        .then(
          (result) =>
            !controller.signal.aborted && setCheck({ state: result.valid ? 'valid' : 'invalid', of: list, problems: result.problems, files: result.files }),
        )
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          const trouble = troubleOf(error);
          // A file that moved on the branch is for the commit to find (it opens the merge); the set is not invalid.
          if (trouble.status === 409) setCheck({ state: 'moved', of: list, trouble });
          else setCheck({ state: 'failed', of: list, trouble });
        });
    }, CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [branch, list]);
  return check;
}
