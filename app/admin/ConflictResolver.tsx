// When a commit answers 409 because a file moved on the branch: the base the editor started from, theirs
// (the file on the branch now, with the commit that changed it) and yours. Chunks changed on one side
// merge by themselves (node-diff3); each conflicting chunk is picked or edited. The merged text becomes the
// edit, based on theirs, and the commit is retried. Nothing the editor typed is lost: yours stays in the
// change set until the merge replaces it.
import { useEffect, useMemo, useState } from 'react';
import { callOperation, troubleOf, type Trouble } from './api.ts';
import type { PendingChange } from './change-set.ts';
import { DiffView } from './DiffView.tsx';
import { conflictCount, mergeThreeWay, resolveMerge, type Resolution } from './merge3.ts';
import type { HistoryOut } from './types.ts';
import { timeAgo, TroubleNotice, type Branch } from './ui.tsx';

interface Theirs {
  sha: string | null;
  content: string | null;
  commit?: HistoryOut['commits'][number];
}

export function ConflictResolver({
  change,
  branch,
  onResolved,
  onCancel,
}: {
  change: PendingChange;
  branch: Branch;
  onResolved(base: { sha: string | null; content: string | null }, content: string | null): void;
  onCancel(): void;
}) {
  const [theirs, setTheirs] = useState<Theirs | null>(null);
  const [trouble, setTrouble] = useState<Trouble | null>(null);
  const [choices, setChoices] = useState<Array<Resolution | undefined>>([]);

  useEffect(() => {
    let cancelled = false;
    const read = callOperation('admin_read_file', { path: change.path, branch }).then(
      (file) => ({ sha: file.sha, content: file.content }),
      (error: unknown) => {
        if (troubleOf(error).status === 404) return { sha: null, content: null };
        throw error;
      },
    );
    Promise.all([read, callOperation('admin_history', { branch, path: change.path, limit: 1 })])
      .then(([file, history]) => !cancelled && setTheirs({ ...file, commit: history.commits[0] }))
      .catch((error: unknown) => !cancelled && setTrouble(troubleOf(error)));
    return () => {
      cancelled = true;
    };
  }, [change.path, branch]);

  const chunks = useMemo(
    () => (theirs?.content != null && change.content !== null ? mergeThreeWay(change.base.content ?? '', theirs.content, change.content) : null),
    [theirs, change],
  );
  const conflicts = chunks ? conflictCount(chunks) : 0;
  const merged = chunks ? resolveMerge(chunks, choices) : undefined;
  const choose = (index: number, choice: Resolution) => setChoices((all) => Object.assign([...all], { [index]: choice }));

  if (trouble) return <TroubleNotice trouble={trouble} onDismiss={onCancel} />;
  if (!theirs) return <p className="muted">Reading the file as it is on {branch} now…</p>;
  const base = { sha: theirs.sha, content: theirs.content };
  let conflictIndex = -1;

  return (
    <section className="conflict" aria-labelledby="conflict-title">
      <h2 id="conflict-title">
        <code>{change.path}</code> changed on {branch} while you were editing
      </h2>
      {theirs.commit ? (
        <p>
          Theirs: <strong>{theirs.commit.message}</strong> by {theirs.commit.author}, {timeAgo(theirs.commit.time)} (
          <code>{theirs.commit.sha.slice(0, 7)}</code>).
        </p>
      ) : null}
      {theirs.content === null || change.content === null ? (
        <div className="notice notice-warning">
          <p>
            {theirs.content === null ? 'The file was deleted on the branch; you edited it.' : 'You delete the file; it was changed on the branch.'} Choose which
            to keep.
          </p>
          <div className="actions">
            <button type="button" className="button small" onClick={() => onResolved(base, change.content)}>
              Keep yours ({change.content === null ? 'delete it' : 'your text'})
            </button>
            <button type="button" className="button ghost small" onClick={() => onResolved(base, theirs.content)}>
              Keep theirs
            </button>
          </div>
        </div>
      ) : (
        <>
          <p className="muted">
            {chunks!.length - conflicts > 0 ? 'Changes made on only one side are merged already. ' : ''}
            {conflicts
              ? `${conflicts} place${conflicts === 1 ? '' : 's'} changed on both sides: choose for each.`
              : 'Nothing conflicts: the two edits merge cleanly.'}
          </p>
          {chunks!.map((chunk, i) => {
            if (chunk.kind === 'same') return null;
            const index = ++conflictIndex;
            const choice = choices[index];
            return (
              <fieldset key={i} className="conflict-chunk">
                <legend>Conflict {index + 1}</legend>
                <div className="three-way">
                  <div>
                    <h3>Base (where you started)</h3>
                    <pre>{chunk.base.join('') || '(nothing)'}</pre>
                  </div>
                  <div>
                    <h3>Theirs (on {branch} now)</h3>
                    <pre>{chunk.theirs.join('') || '(nothing)'}</pre>
                  </div>
                  <div>
                    <h3>Yours</h3>
                    <pre>{chunk.yours.join('') || '(nothing)'}</pre>
                  </div>
                </div>
                <div className="choice" role="radiogroup" aria-label={`Resolve conflict ${index + 1}`}>
                  {(['yours', 'theirs', 'both'] as const).map((option) => (
                    <label key={option}>
                      <input type="radio" name={`conflict-${index}`} checked={choice === option} onChange={() => choose(index, option)} />{' '}
                      {option === 'both' ? 'Both (yours, then theirs)' : `Keep ${option}`}
                    </label>
                  ))}
                  <label>
                    <input
                      type="radio"
                      name={`conflict-${index}`}
                      checked={typeof choice === 'object'}
                      onChange={() => choose(index, { text: chunk.yours.join('') })}
                    />{' '}
                    Edit by hand
                  </label>
                </div>
                {typeof choice === 'object' ? (
                  <label className="hand-edit">
                    <span>Text for conflict {index + 1}</span>
                    <textarea
                      value={choice.text}
                      rows={Math.max(3, choice.text.split('\n').length + 1)}
                      onChange={(e) => choose(index, { text: e.target.value })}
                    />
                  </label>
                ) : null}
              </fieldset>
            );
          })}
          {merged !== undefined ? (
            <>
              <h3>The merged file, against theirs</h3>
              <DiffView before={theirs.content} after={merged} path={change.path} layout="unified" label={`Merged ${change.path} against the branch`} />
            </>
          ) : null}
          <div className="actions">
            <button type="button" className="button small" disabled={merged === undefined} onClick={() => onResolved(base, merged!)}>
              Use the merged text and commit again
            </button>
            <button type="button" className="button ghost small" onClick={onCancel}>
              Not now (your edit stays in the change set)
            </button>
          </div>
        </>
      )}
    </section>
  );
}
