// The review screen's notices: the commit that was made (with the way to its publish run), and an edit just
// discarded (with its undo).
import type { PendingChange } from './change-set.ts';
import { ConsoleLink, type Branch } from './ui.tsx';

export function CommittedNotice({ committed, branch }: { committed: { sha: string; message: string }; branch: Branch }) {
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

export function DiscardedNotice({ discarded, onUndo }: { discarded: PendingChange; onUndo(): void }) {
  return (
    <div className="notice" role="status">
      <p>
        Discarded your edit to <code>{discarded.path}</code>.
      </p>
      <button type="button" className="button ghost small" onClick={onUndo}>
        Undo
      </button>
    </div>
  );
}
