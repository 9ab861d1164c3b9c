// Review and commit: every pending edit of the branch on one screen, each file's diff (side by side or
// unified), discard per file, a commit message, then ONE admin_commit_changes with each file's base sha.
// A file that moved on the branch meanwhile (409) opens the three-way merge; problems (422) are shown by
// the file that causes them. Nothing is written that the editor did not see here.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { useActionData, useFetcher, useNavigate } from '@remix-run/react';
import { getFormProps, getTextareaProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { useEffect, useMemo, useRef, useState } from 'react';
import { z } from 'zod';
import { adminCommitChanges } from '../../operations/contract/admin.ts';
import { troubleFromBody, type Trouble } from '../admin/api.ts';
import { saveChange, useChangeSet, type PendingChange } from '../admin/change-set.ts';
import { ConflictResolver } from '../admin/ConflictResolver.tsx';
import { DiffView } from '../admin/DiffView.tsx';
import { asEditor, attempt, branchOf, requireEditor } from '../admin/session.server.ts';
import { ConsoleLink, consoleHref, formErrors, Shortcut, timeAgo, TroubleNotice, useBranch } from '../admin/ui.tsx';

/** The commit form: the message is the operation's own field schema; the changes travel as JSON. */
const CommitForm = z.object({ message: adminCommitChanges.input.shape.message, changes: z.string().min(2) });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireEditor(request, context);
  return { branch: branchOf(request) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: CommitForm, formatError: formErrors });
  if (submission.status !== 'success') return { result: submission.reply(), outcome: null };
  const branch = branchOf(request);
  const outcome = await attempt(() =>
    asEditor(request, context, 'admin_commit_changes', { branch, message: submission.value.message, changes: JSON.parse(submission.value.changes) }),
  );
  return { result: outcome.ok ? submission.reply({ resetForm: true }) : submission.reply(), outcome };
}

const asChanges = (changes: PendingChange[]) =>
  changes.map((c) =>
    c.content === null
      ? { path: c.path, delete: true as const, ...(c.base.sha ? { sha: c.base.sha } : {}) }
      : { path: c.path, content: c.content, sha: c.base.sha },
  );

export default function ReviewPage() {
  const branch = useBranch();
  const navigate = useNavigate();
  const { changes, discard, clear } = useChangeSet(branch);
  const list = useMemo(() => Object.values(changes).sort((a, b) => a.path.localeCompare(b.path)), [changes]);
  const fetcher = useFetcher<typeof action>();
  const initial = useActionData<typeof action>();
  const data = fetcher.data ?? initial;
  const [layout, setLayout] = useState<'split' | 'unified'>('split');
  const [conflictPath, setConflictPath] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const lastHandled = useRef<unknown>(null);
  const [form, fields] = useForm({
    lastResult: data?.result,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CommitForm, formatError: formErrors }),
  });

  const outcome = data?.outcome;
  const trouble: Trouble | null = outcome && !outcome.ok ? troubleFromBody(outcome.status, outcome.body, outcome.retryAfter) : null;

  // A successful commit: the committed edits leave the change set, and the publish screen follows the run.
  useEffect(() => {
    if (!outcome || lastHandled.current === outcome) return;
    lastHandled.current = outcome;
    if (outcome.ok) {
      clear(outcome.value.files.map((f) => f.path));
      navigate(consoleHref('/admin/publish', branch, { commit: outcome.value.commit.sha }));
    } else if (outcome.status === 409 && typeof outcome.body.path === 'string') {
      setConflictPath(outcome.body.path);
    }
  }, [outcome, clear, navigate, branch]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key === 'Enter' && list.length) {
        event.preventDefault();
        formRef.current?.requestSubmit();
      }
      if (event.key === 'Escape') setConflictPath(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [list.length]);

  const problemsOf = (path: string) => trouble?.problems.filter((p) => p.path === path) ?? [];
  const conflict = conflictPath ? changes[conflictPath] : undefined;
  const submitting = fetcher.state !== 'idle';

  return (
    <div className="console-page">
      <div className="page-head">
        <h1>Review and commit to {branch}</h1>
        <p className="muted">
          {list.length ? `${list.length} file${list.length === 1 ? '' : 's'} will change in one commit.` : 'Nothing to commit: your change set is empty.'}
        </p>
      </div>
      {!list.length ? (
        <p>
          <ConsoleLink to="/admin" className="button small">
            Back to the files
          </ConsoleLink>
        </p>
      ) : (
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
          {conflict ? (
            <ConflictResolver
              change={conflict}
              branch={branch}
              onCancel={() => setConflictPath(null)}
              onResolved={(base, content) => {
                saveChange(branch, { path: conflict.path, base, content });
                setConflictPath(null);
                // Commit again on the new base, with the same message.
                requestAnimationFrame(() => formRef.current?.requestSubmit());
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
                    <span className="muted">edited {timeAgo(change.updatedAt)}</span>
                    <ConsoleLink to="/admin/edit" query={{ path: change.path }} className="button ghost small">
                      Edit
                    </ConsoleLink>
                    <button type="button" className="button ghost small" onClick={() => discard(change.path)}>
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
          <fetcher.Form method="post" {...getFormProps(form)} ref={formRef} className="commit-form">
            <input type="hidden" name="changes" value={JSON.stringify(asChanges(list))} />
            <label htmlFor={fields.message.id}>Commit message</label>
            <textarea
              {...getTextareaProps(fields.message)}
              rows={2}
              placeholder="What changed and why, in a line"
              aria-describedby={fields.message.errors ? fields.message.errorId : undefined}
            />
            {fields.message.errors ? (
              <p className="field-error" id={fields.message.errorId}>
                {fields.message.errors.join(' ')}
              </p>
            ) : null}
            <button type="submit" className="button" disabled={submitting}>
              {submitting ? 'Committing…' : `Commit ${list.length} file${list.length === 1 ? '' : 's'} to ${branch}`} <Shortcut keys="Mod-Enter" />
            </button>
          </fetcher.Form>
        </>
      )}
    </div>
  );
}
