// A change set with images committed from the browser: ONE admin_commit_changes at its REST route with the session
// cookie (the route reads a body large enough for a few images; the review form's action reads texts), its answer
// handed to the review page in the shape the form's action gives, so both are handled alike.
import { useCallback, useState } from 'react';
import { ApiError } from '../../operations/adapters/client.ts';
import { callOperation, troubleOf, type ErrorBody } from './api.ts';
import { changesWithImages, type PendingChange } from './change-set.ts';
import type { CommitResultOut } from './types.ts';
import type { Branch } from './ui.tsx';

/** What the commit answered, as the review form's action returns it. */
type DirectOutcome = { ok: true; value: CommitResultOut } | { ok: false; status: number; body: ErrorBody; retryAfter?: number };

export function useDirectCommit(branch: Branch) {
  const [data, setData] = useState<{ result: undefined; outcome: DirectOutcome } | undefined>(undefined);
  const [sending, setSending] = useState(false);
  const commit = useCallback(
    (message: string, list: readonly PendingChange[]) => {
      setSending(true);
      void changesWithImages(branch, list)
        .then((changes) => callOperation('admin_commit_changes', { branch, message, changes }))
        .then(
          (value): DirectOutcome => ({ ok: true, value }),
          (error: unknown): DirectOutcome => {
            if (error instanceof ApiError) {
              const retry = Number(error.headers.get('retry-after'));
              return { ok: false, status: error.status, body: error.body, ...(retry > 0 ? { retryAfter: retry } : {}) };
            }
            const trouble = troubleOf(error);
            return { ok: false, status: trouble.status, body: { code: trouble.code, message: `${trouble.title}: ${trouble.message}` } };
          },
        )
        .then((outcome) => {
          setData({ result: undefined, outcome });
          setSending(false);
        });
    },
    [branch],
  );
  return { data, sending, commit };
}
