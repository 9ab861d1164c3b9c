// Review and commit: every pending edit of the branch on one screen, each file's diff (side by side or unified),
// the whole change set validated before the commit button is enabled (with the translations a deleted source takes
// with it), discard per file with an undo, a commit message kept across reloads, then ONE admin_commit_changes with
// each file's base sha — once, whether by the button or by Ctrl+Enter. A file that moved on the branch meanwhile
// (409) opens the three-way merge. Nothing is written that the editor did not see here.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { useActionData, useFetcher } from '@remix-run/react';
import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { useMemo, useRef, useState } from 'react';
import { z } from 'zod';
import { adminCommitChanges } from '../../operations/contract/admin.ts';
import { PUBLISHER_NEEDED, useMayPublish } from '../admin/account.tsx';
import { troubleFromBody, type Trouble } from '../admin/api.ts';
import { asChanges, hasImages, saveChange, useChangeSet, useDraftMessage, type PendingChange } from '../admin/change-set.ts';
import { useDirectCommit } from '../admin/use-direct-commit.ts';
import { useChangeSetCheck } from '../admin/change-set-check.ts';
import { DeletedWithEnglish, ProblemsInOtherFiles } from '../admin/ChangeSetEffects.tsx';
import { CommitMessageField, CommitState } from '../admin/CommitFields.tsx';
import { ConflictResolver } from '../admin/ConflictResolver.tsx';
import { ReviewItem } from '../admin/ReviewItem.tsx';
import { CommittedNotice, DiscardedNotice } from '../admin/ReviewNotices.tsx';
import { asEditor, attempt, branchOf, requireEditor } from '../admin/session.server.ts';
import { ConsoleLink, formErrors, Shortcut, TroubleNotice, useBranch, useHydrated } from '../admin/ui.tsx';
import { useCommitAnswer, useCommitKeys, useCommitWhenReady } from '../admin/use-commit-flow.ts';

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
  const mayPublish = useMayPublish();
  const { changes, discard, clear } = useChangeSet(branch);
  const list = useMemo(() => Object.values(changes).sort((a, b) => a.path.localeCompare(b.path)), [changes]);
  const fetcher = useFetcher<typeof action>();
  const initial = useActionData<typeof action>();
  // A set with images is committed from the browser at the REST route (its images are megabytes the form does not carry).
  const direct = useDirectCommit(branch);
  const withImages = hasImages(list);
  const data = direct.data ?? fetcher.data ?? initial;
  const [layout, setLayout] = useState<'split' | 'unified'>('split');
  const [conflictPath, setConflictPath] = useState<string | null>(null);
  const [discarded, setDiscarded] = useState<PendingChange | null>(null);
  const [message, setMessage] = useDraftMessage(branch);
  const formRef = useRef<HTMLFormElement>(null);
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
  const submitting = fetcher.state !== 'idle' || direct.sending;
  const { committed, inFlight } = useCommitAnswer(data, { branch, clear, setMessage, onConflict: setConflictPath });
  // Committable once this very set was checked: valid, or with a file that moved (the commit then opens the merge).
  const checked = check.of === list && (check.state === 'valid' || check.state === 'moved');
  // An editor's commit to main is refused by the service (403): not offered here, and the page says why.
  const closed = branch === 'main' && !mayPublish;
  const ready = list.length > 0 && checked && !submitting && !committed && !conflictPath && !closed;
  const commitWhenReady = useCommitWhenReady(formRef, check, list, ready);
  useCommitKeys(formRef, () => setConflictPath(null));

  const problems = [...(trouble?.problems ?? []), ...(check.problems ?? [])];
  const conflict = conflictPath ? changes[conflictPath] : undefined;
  const cascade = check.files?.filter((f) => f.cascade) ?? [];
  // Problems the change set causes in files it does not change (entries naming a skill it breaks…).
  const listed = new Set(list.map((c) => c.path));

  if (committed) return <CommittedNotice committed={committed} branch={branch} />;
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
      {discarded ? <DiscardedNotice discarded={discarded} onUndo={() => (saveChange(branch, discarded), setDiscarded(null))} /> : null}
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
                commitWhenReady(); // again, on the new base and with the same message, once the set is checked
              }}
            />
          ) : null}
          <ol className="review-list">
            {list.map((change) => (
              <ReviewItem
                key={change.path}
                change={change}
                problems={problems.filter((p) => p.path === change.path)}
                layout={layout}
                onDiscard={() => (setDiscarded(change), discard(change.path))}
              />
            ))}
          </ol>
          <ProblemsInOtherFiles problems={problems.filter((p) => p.path && !listed.has(p.path))} />
          <DeletedWithEnglish files={cascade} />
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
              if (event.defaultPrevented) return;
              inFlight.current = true;
              if (withImages) {
                event.preventDefault();
                direct.commit(message, list);
              }
            }}
          >
            <input type="hidden" name="changes" value={withImages ? '[]' : JSON.stringify(asChanges(list))} />
            <CommitMessageField field={fields.message} message={message} onMessage={setMessage} />
            <CommitState check={check} branch={branch} />
            {closed ? (
              <p className="field-error needs-role" id="commit-closed">
                {PUBLISHER_NEEDED} Commit these edits on dev instead: switch to dev, make them there, and commit.
              </p>
            ) : null}
            <button type="submit" className="button" disabled={!ready}>
              {submitting ? 'Committing…' : `Commit ${list.length} file${list.length === 1 ? '' : 's'} to ${branch}`} <Shortcut keys="Mod-Enter" />
            </button>
          </fetcher.Form>
        </>
      ) : null}
    </div>
  );
}
