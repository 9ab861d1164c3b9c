// Review and commit: every pending edit of the branch on one screen, each file's diff (side by side or unified),
// the whole change set validated before the commit button is enabled (with the translations a deleted source takes
// with it), discard per file with an undo, a commit message kept across reloads, then ONE admin_commit_changes with
// each file's base sha — once, whether by the button or by Ctrl+Enter. A file that moved on the branch meanwhile
// (409) opens the three-way merge. Nothing is written that the editor did not see here.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { useActionData, useFetcher, useNavigate } from '@remix-run/react';
import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { useEffect, useMemo, useRef, useState } from 'react';
import { z } from 'zod';
import { adminCommitChanges } from '../../operations/contract/admin.ts';
import { troubleFromBody, type Trouble } from '../admin/api.ts';
import { asChanges, saveChange, useChangeSet, useDraftMessage, type PendingChange } from '../admin/change-set.ts';
import { ConflictResolver } from '../admin/ConflictResolver.tsx';
import { DiffView } from '../admin/DiffView.tsx';
import { useChangeSetCheck } from '../admin/change-set-check.ts';
import { asEditor, attempt, branchOf, requireEditor } from '../admin/session.server.ts';
import { ConsoleLink, consoleHref, formErrors, ProblemElsewhere, Shortcut, TimeAgo, TroubleNotice, useBranch, useHydrated } from '../admin/ui.tsx';

/** The commit form: the message is the operation's own field schema; the changes travel as JSON. */
const CommitForm = z.object({
  message: adminCommitChanges.input.shape.message,
  // The change set as JSON text; text that is not JSON is the form's error, not the server's.
  changes: z
    .string()
    .min(2)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'The change set is not valid JSON; reload the page to read it again from this browser.' });
        return z.NEVER;
      }
    }),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireEditor(request, context);
  return { branch: branchOf(request) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: CommitForm, formatError: formErrors });
  if (submission.status !== 'success') return { result: submission.reply(), outcome: null };
  const branch = branchOf(request);
  const outcome = await attempt(() =>
    asEditor(request, context, 'admin_commit_changes', { branch, message: submission.value.message, changes: submission.value.changes as never }),
  );
  return { result: outcome.ok ? submission.reply({ resetForm: true }) : submission.reply(), outcome };
}

export default function ReviewPage() {
  const branch = useBranch();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const { changes, discard, clear } = useChangeSet(branch);
  const list = useMemo(() => Object.values(changes).sort((a, b) => a.path.localeCompare(b.path)), [changes]);
  const fetcher = useFetcher<typeof action>();
  const initial = useActionData<typeof action>();
  const data = fetcher.data ?? initial;
  const [layout, setLayout] = useState<'split' | 'unified'>('split');
  const [conflictPath, setConflictPath] = useState<string | null>(null);
  const [discarded, setDiscarded] = useState<PendingChange | null>(null);
  const [committed, setCommitted] = useState<{ sha: string; message: string } | null>(null);
  const [message, setMessage] = useDraftMessage(branch);
  const [commitWhenReady, setCommitWhenReady] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const lastHandled = useRef<unknown>(null);
  /** One submission per commit: set when one leaves, cleared when its answer is a failure. */
  const inFlight = useRef(false);
  const check = useChangeSetCheck(branch, list);
  // conform validates the form with the operation's own schema; the message itself is kept by the page (and in
  // this browser), not by conform, so nothing typed is lost to a re-mounted field. Not on blur: conform validates
  // by submitting the form, and the field's blur as the form goes away after a commit sent the form a second time.
  const [form, fields] = useForm({
    lastResult: data?.result,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CommitForm, formatError: formErrors }),
  });
  const formProps = getFormProps(form);

  const outcome = data?.outcome;
  const trouble: Trouble | null = outcome && !outcome.ok ? troubleFromBody(outcome.status, outcome.body, outcome.retryAfter) : null;
  const submitting = fetcher.state !== 'idle';
  // Committable once this very set was checked: valid, or with a file that moved (the commit then opens the merge).
  const checked = check.of === list && (check.state === 'valid' || check.state === 'moved');
  const ready = list.length > 0 && checked && !submitting && !committed && !conflictPath;

  // A commit's answer: on success the committed edits leave the change set and the publish screen follows the run.
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
    if (outcome.status === 409 && typeof outcome.body.path === 'string') setConflictPath(outcome.body.path);
  }, [data, outcome, clear, navigate, branch, setMessage]);

  useEffect(() => {
    if (!commitWhenReady || check.of !== list) return;
    setCommitWhenReady(false);
    if (ready) formRef.current?.requestSubmit();
  }, [commitWhenReady, check.of, list, ready]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key === 'Enter') {
        event.preventDefault();
        if (!event.repeat) formRef.current?.requestSubmit();
      }
      if (event.key === 'Escape') setConflictPath(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const problemsOf = (path: string) => [...(trouble?.problems ?? []), ...(check.problems ?? [])].filter((p) => p.path === path);
  const conflict = conflictPath ? changes[conflictPath] : undefined;
  const cascade = check.files?.filter((f) => f.cascade) ?? [];
  // Problems the change set causes in files it does not change (entries naming a skill it breaks…).
  const listed = new Set(list.map((c) => c.path));
  const elsewhere = [...(trouble?.problems ?? []), ...(check.problems ?? [])].filter((p) => p.path && !listed.has(p.path));

  if (committed) {
    return (
      <div className="console-page">
        <div className="notice" role="status">
          <p>
            Committed <code>{committed.sha.slice(0, 7)}</code> to {branch}: “{committed.message}”.
          </p>
          <ConsoleLink className="button small" to="/admin/publish" query={{ commit: committed.sha }}>
            Follow its publish run
          </ConsoleLink>
        </div>
      </div>
    );
  }

  return (
    <div className="console-page">
      <div className="page-head">
        <h1 tabIndex={-1}>Review and commit to {branch}</h1>
        <p className="muted">
          {!hydrated
            ? 'Reading your change set…'
            : list.length
              ? `${list.length} file${list.length === 1 ? '' : 's'} will change in one commit${cascade.length ? `, and ${cascade.length} translation${cascade.length === 1 ? '' : 's'} of deleted files with them` : ''}.`
              : 'Nothing to commit: your change set is empty.'}
        </p>
      </div>
      {discarded ? (
        <div className="notice" role="status">
          <p>
            Discarded your edit to <code>{discarded.path}</code>.
          </p>
          <button
            type="button"
            className="button ghost small"
            onClick={() => {
              saveChange(branch, discarded);
              setDiscarded(null);
            }}
          >
            Undo
          </button>
        </div>
      ) : null}
      {hydrated && !list.length ? (
        <p>
          <ConsoleLink to="/admin" className="button small">
            Back to the files
          </ConsoleLink>
        </p>
      ) : list.length ? (
        <>
          <div className="toolbar">
            <div role="group" aria-label="Diff layout" className="segmented">
              {(['split', 'unified'] as const).map((l) => (
                <button key={l} type="button" aria-pressed={layout === l} className={layout === l ? 'active' : ''} onClick={() => setLayout(l)}>
                  {l === 'split' ? 'Side by side' : 'Unified'}
                </button>
              ))}
            </div>
          </div>
          {trouble && !conflict ? <TroubleNotice trouble={trouble} /> : null}
          {check.state === 'failed' && check.trouble ? <TroubleNotice trouble={check.trouble} /> : null}
          {conflict ? (
            <ConflictResolver
              change={conflict}
              branch={branch}
              onCancel={() => setConflictPath(null)}
              onResolved={(base, content) => {
                saveChange(branch, { path: conflict.path, base, content });
                setConflictPath(null);
                setCommitWhenReady(true); // again, on the new base and with the same message, once the set is checked
              }}
            />
          ) : null}
          <ol className="review-list">
            {list.map((change) => {
              const status = change.content === null ? 'deleted' : change.base.content === null ? 'added' : 'modified';
              const problems = problemsOf(change.path);
              return (
                <li key={change.path} className="review-item">
                  <div className="review-head">
                    <h2>
                      <span className={`status status-${status}`}>{status}</span> <code>{change.path}</code>
                    </h2>
                    <span className="muted">
                      edited <TimeAgo when={change.updatedAt} />
                    </span>
                    <ConsoleLink to="/admin/edit" query={{ path: change.path }} className="button ghost small">
                      Edit
                    </ConsoleLink>
                    <button
                      type="button"
                      className="button ghost small"
                      onClick={() => {
                        setDiscarded(change);
                        discard(change.path);
                      }}
                    >
                      Discard
                    </button>
                  </div>
                  {problems.length ? (
                    <ul className="problem-list" role="alert">
                      {problems.map((p, i) => (
                        <li key={i}>
                          {p.line ? `Line ${p.line}: ` : ''}
                          {p.message}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  <DiffView
                    before={change.base.content ?? ''}
                    after={change.content ?? ''}
                    path={change.path}
                    layout={layout}
                    label={`Changes to ${change.path}`}
                  />
                </li>
              );
            })}
          </ol>
          {elsewhere.length ? (
            <section className="elsewhere" aria-labelledby="elsewhere-title">
              <h2 id="elsewhere-title">Problems the change causes in other files</h2>
              <ul className="problem-list">
                {elsewhere.map((p, i) => (
                  <li key={i}>
                    <ProblemElsewhere problem={p} />
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {cascade.length ? (
            <section className="cascade" aria-labelledby="cascade-title">
              <h2 id="cascade-title">Deleted with their English</h2>
              <p className="muted">A translation goes with the file it translates, in the same commit.</p>
              <ul>
                {cascade.map((f) => (
                  <li key={f.path}>
                    <span className="status status-deleted">deleted</span> <code>{f.path}</code>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <fetcher.Form
            method="post"
            {...formProps}
            ref={formRef}
            className="commit-form"
            onSubmit={(event) => {
              // One submission per commit: a second press (or Ctrl+Enter) while the first is on its way, or after it
              // committed, would send the set again and cancel the move to the publish page.
              if (inFlight.current || !ready) return event.preventDefault();
              formProps.onSubmit(event);
              if (!event.defaultPrevented) inFlight.current = true;
            }}
          >
            <input type="hidden" name="changes" value={JSON.stringify(asChanges(list))} />
            <label htmlFor={fields.message.id}>Commit message</label>
            <textarea
              id={fields.message.id}
              name={fields.message.name}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              rows={2}
              placeholder="What changed and why, in a line"
              aria-invalid={fields.message.errors ? true : undefined}
              aria-describedby={fields.message.errors ? fields.message.errorId : 'commit-state'}
            />
            {fields.message.errors ? (
              <p className="field-error" id={fields.message.errorId}>
                {fields.message.errors.join(' ')}
              </p>
            ) : null}
            <p id="commit-state" className={check.state === 'invalid' ? 'field-error' : 'muted'} role="status">
              {check.state === 'checking'
                ? 'Checking the whole change set against the branch…'
                : check.state === 'invalid'
                  ? `The change set has ${check.problems?.length ?? 0} problem${check.problems?.length === 1 ? '' : 's'}, listed above: fix them before committing.`
                  : check.state === 'valid'
                    ? 'The whole tree is valid with these changes.'
                    : check.state === 'moved'
                      ? `${check.trouble?.conflict?.path ?? 'A file'} changed on ${branch} since you started editing it: committing opens the merge of the two.`
                      : ''}
            </p>
            <button type="submit" className="button" disabled={!ready}>
              {submitting ? 'Committing…' : `Commit ${list.length} file${list.length === 1 ? '' : 's'} to ${branch}`} <Shortcut keys="Mod-Enter" />
            </button>
          </fetcher.Form>
        </>
      ) : null}
    </div>
  );
}
