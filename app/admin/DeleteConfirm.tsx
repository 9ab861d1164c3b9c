// The question before a file is marked for deletion: it names the translations that go with it, and nothing is
// removed until the change set is committed.
import type { FileOut } from './types.ts';
import { Shortcut } from './ui.tsx';

export function DeleteConfirm({
  path,
  translations,
  onDelete,
  onCancel,
}: {
  path: string;
  translations: FileOut['translations'] | undefined;
  onDelete(): void;
  onCancel(): void;
}) {
  const existing = Object.entries(translations ?? {}).filter(([, state]) => state !== 'missing');
  return (
    <div className="notice notice-warning" role="alertdialog" aria-labelledby="delete-title">
      <p id="delete-title">
        Delete <code>{path}</code>
        {existing.length ? ` and its ${existing.length} translation${existing.length === 1 ? '' : 's'} (${existing.map(([l]) => l).join(', ')})` : ''}? It joins
        your change set and is removed when you commit; history keeps it.
      </p>
      <button type="button" className="button small danger" autoFocus onClick={onDelete}>
        Delete
      </button>
      <button type="button" className="button ghost small" onClick={onCancel}>
        Cancel <Shortcut keys="Escape" />
      </button>
    </div>
  );
}
