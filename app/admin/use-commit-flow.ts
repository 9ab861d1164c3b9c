// How the review screen's one commit travels: its answer (on success the committed edits leave the change set and
// the publish screen follows the run; a file that moved opens the merge), a commit made again once a merged set is
// checked, and the keyboard (Mod-Enter commits, Escape closes the merge).
import { useNavigate } from '@remix-run/react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { ChangeSetCheck } from './change-set-check.ts';
import type { PendingChange } from './change-set.ts';
import { consoleHref, type Branch } from './ui.tsx';

/** What admin_commit_changes answered, as the review route's action returns it. */
export type CommitOutcome =
  | { ok: true; value: { commit: { sha: string; message: string }; files: Array<{ path: string }> } }
  | { ok: false; status: number; body: { [key: string]: unknown } };

export interface Committed {
  sha: string;
  message: string;
}

/**
 * Handles each answer of the commit form once. `inFlight` is the one-submission-per-commit guard: set by the form
 * when one leaves, cleared here when its answer is a failure.
 */
export function useCommitAnswer(
  data: { outcome: CommitOutcome | null } | undefined,
  {
    branch,
    clear,
    setMessage,
    onConflict,
  }: { branch: Branch; clear(paths: string[]): void; setMessage(message: string): void; onConflict(path: string): void },
) {
  const navigate = useNavigate();
  const [committed, setCommitted] = useState<Committed | null>(null);
  const lastHandled = useRef<unknown>(null);
  const inFlight = useRef(false);
  const outcome = data?.outcome;
  useEffect(() => {
    if (!data || lastHandled.current === data) return;
    lastHandled.current = data;
    if (!outcome) {
      inFlight.current = false; // the form itself was refused (its errors are shown at the field)
      return;
    }
    if (outcome.ok) {
      setCommitted({ sha: outcome.value.commit.sha, message: outcome.value.commit.message });
      setMessage('');
      clear(outcome.value.files.map((f) => f.path));
      navigate(consoleHref('/admin/publish', branch, { commit: outcome.value.commit.sha }));
      return;
    }
    inFlight.current = false;
    if (outcome.status === 409 && typeof outcome.body.path === 'string') onConflict(outcome.body.path);
  }, [data, outcome, clear, navigate, branch, setMessage, onConflict]);
  return { committed, inFlight };
}

/** Commits again (after a merge, on the new base and with the same message) once the set is checked and ready. */
export function useCommitWhenReady(form: RefObject<HTMLFormElement>, check: ChangeSetCheck, list: readonly PendingChange[], ready: boolean) {
  const [commitWhenReady, setCommitWhenReady] = useState(false);
  useEffect(() => {
    if (!commitWhenReady || check.of !== list) return;
    setCommitWhenReady(false);
    if (ready) form.current?.requestSubmit();
  }, [commitWhenReady, check.of, list, ready, form]);
  return () => setCommitWhenReady(true);
}

/** Mod-Enter sends the commit form (once per press); Escape closes the merge. */
export function useCommitKeys(form: RefObject<HTMLFormElement>, closeMerge: () => void) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key === 'Enter') {
        event.preventDefault();
        if (!event.repeat) form.current?.requestSubmit();
      }
      if (event.key === 'Escape') closeMerge();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
}
