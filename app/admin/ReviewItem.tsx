// One file of the change set on the review screen: added, modified or deleted, when it was edited, its problems,
// and its diff against the text it started from.
import type { PendingChange } from './change-set.ts';
import { DiffView } from './DiffView.tsx';
import { PendingImage } from './ImageChange.tsx';
import { ConsoleLink, TimeAgo, useBranch } from './ui.tsx';

export function ReviewItem({
  change,
  problems,
  layout,
  onDiscard,
}: {
  change: PendingChange;
  problems: Array<{ line?: number; message: string }>;
  layout: 'split' | 'unified';
  onDiscard(): void;
}) {
  const branch = useBranch();
  const status =
    change.content === null ? 'deleted' : change.image ? (change.base.sha ? 'modified' : 'added') : change.base.content === null ? 'added' : 'modified';
  return (
    <li className="review-item">
      <div className="review-head">
        <h2>
          <span className={`status status-${status}`}>{status}</span> <code>{change.path}</code>
        </h2>
        <span className="muted">
          edited <TimeAgo when={change.updatedAt} />
        </span>
        {change.image ? null : (
          <ConsoleLink to="/admin/edit" query={{ path: change.path }} className="button ghost small">
            Edit
          </ConsoleLink>
        )}
        <button type="button" className="button ghost small" onClick={onDiscard}>
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
      {change.image ? (
        <PendingImage path={change.path} branch={branch} baseSha={change.base.sha} image={change.image} />
      ) : (
        <DiffView before={change.base.content ?? ''} after={change.content ?? ''} path={change.path} layout={layout} label={`Changes to ${change.path}`} />
      )}
    </li>
  );
}
