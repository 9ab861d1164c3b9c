// What the editor says above a file before anything is typed: an edit restored from this browser (discard, with an
// undo), a file marked for deletion, main being the live site, a translation whose English changed since.
import { useState } from 'react';
import { UNTRANSLATED } from '../../operations/contract/vocabulary.ts';
import { PUBLISHER_NEEDED } from './account.tsx';
import { useChangeSet, type PendingChange } from './change-set.ts';
import type { TranslationOut } from './types.ts';
import { ConsoleLink, consoleHref, TimeAgo, type Branch } from './ui.tsx';
import { Link } from '@remix-run/react';

export function EditorNotices({
  path,
  branch,
  restored,
  movedOn,
  deleted,
  lockedOnMain,
  translation,
  text,
  onUnlockMain,
  onDiscard,
  onUndoDiscard,
  onKeep,
  onReplace,
}: {
  path: string;
  branch: Branch;
  restored: PendingChange | null;
  movedOn: boolean;
  deleted: boolean;
  lockedOnMain: boolean;
  translation?: TranslationOut;
  text: string;
  /** Absent for an editor, whose role may not commit to main: the notice says so instead. */
  onUnlockMain?(): void;
  onDiscard(): void;
  /** Puts a discarded edit back as it was: its text and the file it started from (so a commit still finds a change made meanwhile). */
  onUndoDiscard(change: PendingChange): void;
  onKeep(): void;
  onReplace(text: string): void;
}) {
  const [discarded, setDiscarded] = useState<PendingChange | null>(null);
  const englishPending = useChangeSet(branch).changes[translation?.sourcePath ?? ''] !== undefined;
  const recorded = translation ? /^source:\s*["']?([^"'\s]*)["']?\s*$/m.exec(text)?.[1] : undefined;
  const stale = translation?.currentSource && recorded !== undefined && recorded !== translation.currentSource;
  return (
    <>
      {lockedOnMain ? (
        <div className="notice notice-warning" role="status">
          <p>
            <strong>This is main, the live site.</strong> A commit here is published at once, with no preview. Edit on dev to preview first, then promote.
          </p>
          <Link className="button small" to={consoleHref('/admin/edit', 'dev', { path })}>
            Edit on dev instead
          </Link>
          {onUnlockMain ? (
            <button type="button" className="button ghost small" onClick={onUnlockMain}>
              Edit main anyway
            </button>
          ) : (
            <p className="needs-role">{PUBLISHER_NEEDED}</p>
          )}
        </div>
      ) : null}
      {restored ? (
        <div className="notice" role="status">
          <p>
            Your edit from <TimeAgo when={restored.updatedAt} /> was kept in this browser and is restored here.
            {movedOn ? ' The file has changed on the branch since you started; you will merge the two when you commit.' : ''}
          </p>
          <button
            type="button"
            className="button ghost small"
            onClick={() => {
              setDiscarded({ ...restored, content: text });
              onDiscard();
            }}
          >
            Discard my edit
          </button>
        </div>
      ) : discarded ? (
        <div className="notice" role="status">
          <p>Your edit was discarded.</p>
          <button
            type="button"
            className="button ghost small"
            onClick={() => {
              onUndoDiscard(discarded);
              setDiscarded(null);
            }}
          >
            Undo
          </button>
        </div>
      ) : null}
      {deleted ? (
        <div className="notice notice-warning" role="status">
          <p>This file is marked for deletion in your change set. It is deleted when you commit{branch === 'dev' ? '' : ', on the live site'}.</p>
          <button type="button" className="button ghost small" onClick={onKeep}>
            Keep the file
          </button>
        </div>
      ) : null}
      {translation && stale ? (
        <div className="notice notice-warning" role="status">
          {recorded === UNTRANSLATED ? (
            <p>
              This translation is not finished: it starts as a copy of the English ({translation.sourcePath}). Translate each field, with the English beside it,
              then mark it current. Until then the site shows the English, and the publish run may translate it for you.
            </p>
          ) : (
            <p>
              This translation is stale: the English ({translation.sourcePath}) changed since it was made, so the site shows the English until it is translated
              again. The publish run translates it; or translate it here (what changed is beside the editor) and mark it current.
            </p>
          )}
          {englishPending ? (
            <p className="muted">
              The English has edits of its own in your change set: Translate now translates it as edited; to mark this translation current, commit the English
              first.
            </p>
          ) : (
            <button
              type="button"
              className="button ghost small"
              onClick={() => onReplace(text.replace(/^source:.*$/m, `source: ${translation.currentSource}`))}
            >
              Mark as current
            </button>
          )}
          <ConsoleLink className="button ghost small" to="/admin/edit" query={{ path: translation.sourcePath }}>
            Open the English
          </ConsoleLink>
        </div>
      ) : null}
    </>
  );
}
