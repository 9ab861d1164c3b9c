// The editor's toolbar: form or source, whether the text is kept and valid, and the ways on from here (an AI
// edit, a model's translations, the preview, deletion, review and commit).
import type { EditorViewName } from './editor-prefs.ts';
import { useTranslateNow } from './TranslateNow.tsx';
import type { FileOut, ProblemOut, TranslationOut } from './types.ts';
import { ConsoleLink, Shortcut, timeAgo, type Branch } from './ui.tsx';

export type EditorPanel = 'ai' | 'preview' | null;

export function EditorToolbar({
  path,
  branch,
  text,
  hasForm,
  view,
  onView,
  status: { deleted, pending, savedAt, validating, problems },
  panel,
  onPanel,
  readOnly,
  translation,
  translations,
  onDraft,
  onDelete,
}: {
  path: string;
  branch: Branch;
  text: string;
  /** The file's kind has a form (else the source is the only view). */
  hasForm: boolean;
  view: EditorViewName;
  onView(view: EditorViewName): void;
  /** Whether the text is kept and valid, as the editor knows it now. */
  status: {
    deleted: boolean;
    /** The change set holds an edit of this file. */
    pending: boolean;
    savedAt: number | null;
    validating: boolean;
    problems: ProblemOut[] | null;
  };
  panel: EditorPanel;
  onPanel(panel: EditorPanel): void;
  readOnly: boolean;
  translation: TranslationOut | undefined;
  translations: FileOut['translations'] | undefined;
  onDraft(text: string): void;
  /** Asks whether to delete the file; absent for a file not in the repository yet. */
  onDelete: (() => void) | undefined;
}) {
  // Its answer goes under the toolbar, at the toolbar's width, not between its buttons.
  const translate = useTranslateNow({ path, branch, text, translation, translations, disabled: readOnly, onDraft });
  return (
    <>
      <div className="editor-toolbar" role="toolbar" aria-label="Editor">
        {hasForm ? (
          <div role="group" aria-label="View" className="segmented">
            {(['form', 'source'] as const).map((v) => (
              <button key={v} type="button" aria-pressed={view === v} className={view === v ? 'active' : ''} onClick={() => onView(v)}>
                {v === 'form' ? 'Form' : 'Source'}
              </button>
            ))}
          </div>
        ) : null}
        <span className="save-state" role="status" aria-live="polite">
          {deleted ? 'Marked for deletion' : pending || savedAt ? `Kept in your change set${savedAt ? ` ${timeAgo(savedAt)}` : ''}` : 'No changes'}{' '}
          <Shortcut keys="Mod-S" />
        </span>
        <span className="validity" role="status" aria-live="polite">
          {validating ? 'Checking…' : problems === null ? '' : problems.length ? `${problems.length} problem${problems.length === 1 ? '' : 's'}` : 'Valid'}
        </span>
        <button
          type="button"
          className="button ghost small"
          aria-expanded={panel === 'ai'}
          onClick={() => onPanel(panel === 'ai' ? null : 'ai')}
          disabled={readOnly}
        >
          AI edit
        </button>
        {translate.control}
        <button
          type="button"
          className="button ghost small"
          aria-expanded={panel === 'preview'}
          onClick={() => onPanel(panel === 'preview' ? null : 'preview')}
        >
          Preview
        </button>
        {onDelete ? (
          <button type="button" className="button ghost small danger" onClick={onDelete} disabled={readOnly}>
            Delete…
          </button>
        ) : null}
        <ConsoleLink to="/admin/review" className="button small">
          Review and commit <Shortcut keys="Mod-Enter" />
        </ConsoleLink>
      </div>
      {translate.message}
    </>
  );
}
