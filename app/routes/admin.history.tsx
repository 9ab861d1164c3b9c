// History: the commits of a branch, or of one file (?path=), newest first and paged; each commit's diff,
// file by file (the file at the commit against its parent); restoring a file as it was at a commit puts
// that text in the change set, to review and commit like any edit (history is never rewritten).
import type { LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData, useNavigate } from '@remix-run/react';
import { useEffect, useState, type ReactNode } from 'react';
import { callOperation, troubleOf, type Trouble } from '../admin/api.ts';
import { saveChange } from '../admin/change-set.ts';
import { DiffView } from '../admin/DiffView.tsx';
import { asEditor, branchOf } from '../admin/session.server.ts';
import type { HistoryOut } from '../admin/types.ts';
import { ConsoleLink, consoleHref, TimeAgo, TroubleNotice, useBranch } from '../admin/ui.tsx';
import { BranchImage } from '../admin/ImageChange.tsx';
import { isMediaPath } from '../../operations/contract/media-files.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const path = url.searchParams.get('path') ?? undefined;
  const cursor = url.searchParams.get('cursor') ?? undefined;
  const history = await asEditor(request, context, 'admin_history', { branch: branchOf(request), path, cursor, limit: 20 });
  return { path, history };
}

type Commit = HistoryOut['commits'][number];

/** The heading of one file of a commit: its path, and what can be done with it. */
function CommitFileHead({ path, children }: { path: string; children?: ReactNode }) {
  return (
    <div className="review-head">
      <h4>
        <code>{path}</code>
      </h4>
      {children}
    </div>
  );
}

/** An image of a commit: the picture at the commit's first parent and at the commit (where each holds it). */
function CommitImage({ commit, path, branch }: { commit: Commit; path: string; branch: 'main' | 'dev' }) {
  return (
    <div className="commit-file">
      <CommitFileHead path={path} />
      <div className="image-change">
        {commit.parents[0] ? <BranchImage path={path} branch={branch} at={commit.parents[0]} label="Before" /> : null}
        <BranchImage path={path} branch={branch} at={commit.sha} label={`After commit ${commit.sha.slice(0, 7)}`} />
      </div>
    </div>
  );
}

/** One file of a commit: its text at the commit and at the commit's first parent. */
function CommitFile({ commit, path, branch }: { commit: Commit; path: string; branch: 'main' | 'dev' }) {
  const navigate = useNavigate();
  const [texts, setTexts] = useState<{ before: string | null; after: string | null } | null>(null);
  const [trouble, setTrouble] = useState<Trouble | null>(null);
  useEffect(() => {
    const at = (ref: string | undefined) =>
      ref
        ? callOperation('admin_read_file', { path, branch, ref }).then(
            (f) => f.content,
            (error: unknown) => {
              if (troubleOf(error).status === 404) return null;
              throw error;
            },
          )
        : Promise.resolve(null);
    Promise.all([at(commit.parents[0]), at(commit.sha)])
      .then(([before, after]) => setTexts({ before, after }))
      .catch((error: unknown) => setTrouble(troubleOf(error)));
  }, [commit, path, branch]);

  async function restore(content: string | null) {
    try {
      const current = await callOperation('admin_read_file', { path, branch }).catch((error: unknown) => {
        if (troubleOf(error).status === 404) return null;
        throw error;
      });
      saveChange(branch, { path, base: { sha: current?.sha ?? null, content: current?.content ?? null }, content });
      navigate(consoleHref('/admin/review', branch));
    } catch (error) {
      setTrouble(troubleOf(error));
    }
  }

  if (trouble) return <TroubleNotice trouble={trouble} />;
  if (!texts) return <p className="muted">Reading {path}…</p>;
  return (
    <div className="commit-file">
      <CommitFileHead path={path}>
        <ConsoleLink to="/admin/history" query={{ path }} className="button ghost small">
          History of this file
        </ConsoleLink>
        <button type="button" className="button ghost small" onClick={() => void restore(texts.after)}>
          {texts.after === null ? 'Restore: delete it again' : 'Restore this version'}
        </button>
      </CommitFileHead>
      <DiffView before={texts.before ?? ''} after={texts.after ?? ''} path={path} layout="unified" label={`${path} in commit ${commit.sha.slice(0, 7)}`} />
    </div>
  );
}

export default function HistoryPage() {
  const { path, history } = useLoaderData<typeof loader>();
  const branch = useBranch();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="console-page">
      <div className="page-head">
        <h1 tabIndex={-1}>
          {path ? (
            <>
              History of <code>{path}</code>
            </>
          ) : (
            <>History of {branch}</>
          )}
        </h1>
        <p className="muted">Restoring an older version puts it in your change set; you review it and commit it as a new commit.</p>
        {path ? (
          <p>
            <ConsoleLink to="/admin/history">All of {branch}</ConsoleLink> ·{' '}
            <ConsoleLink to="/admin/edit" query={{ path }}>
              Edit the file
            </ConsoleLink>
          </p>
        ) : null}
      </div>
      <ol className="history">
        {history.commits.map((commit) => (
          <li key={commit.sha} className="history-item">
            <button type="button" className="history-head" aria-expanded={open === commit.sha} onClick={() => setOpen(open === commit.sha ? null : commit.sha)}>
              <code>{commit.sha.slice(0, 7)}</code> <strong>{commit.message}</strong>{' '}
              <span className="muted">
                by <span className="commit-author">{commit.author}</span>, <TimeAgo when={commit.time} /> · {commit.files.length} file
                {commit.files.length === 1 ? '' : 's'}
              </span>
            </button>
            {open === commit.sha ? (
              <div className="history-body">
                {(path ? commit.files.filter((f) => f === path) : commit.files).map((file) =>
                  isMediaPath(file) ? (
                    <CommitImage key={file} commit={commit} path={file} branch={branch} />
                  ) : (
                    <CommitFile key={file} commit={commit} path={file} branch={branch} />
                  ),
                )}
              </div>
            ) : null}
          </li>
        ))}
      </ol>
      {history.next ? (
        <ConsoleLink to="/admin/history" query={{ path, cursor: history.next }} className="button ghost">
          Older commits
        </ConsoleLink>
      ) : null}
    </div>
  );
}
