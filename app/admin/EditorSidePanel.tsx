// What stands beside the editor: the AI edit or the preview when one is open, else (for a translation) its English.
import { AiEditPanel } from './AiEditPanel.tsx';
import type { EditorPanel } from './EditorToolbar.tsx';
import { EnglishSource } from './EnglishSource.tsx';
import { PreviewPanel } from './PreviewPanel.tsx';
import type { TranslationOut } from './types.ts';
import type { Branch } from './ui.tsx';

export function EditorSidePanel({
  panel,
  onClose,
  path,
  branch,
  text,
  translation,
  onApply,
}: {
  panel: EditorPanel;
  onClose(): void;
  path: string;
  branch: Branch;
  text: string;
  translation: TranslationOut | undefined;
  /** Replaces the text with an accepted AI edit. */
  onApply(text: string): void;
}) {
  if (panel === 'ai')
    return (
      <AiEditPanel
        path={path}
        branch={branch}
        text={text}
        onApply={(next) => {
          onApply(next);
          onClose();
        }}
        onClose={onClose}
      />
    );
  if (panel === 'preview') return <PreviewPanel path={path} branch={branch} text={text} onClose={onClose} />;
  return translation ? <EnglishSource translation={translation} /> : null;
}
