// The source view as the file editor uses it: CodeMirror over the editor's buffer, a jump to a line that waits
// until the source is shown, and edits from elsewhere (the form, an AI edit, a discard) made through CodeMirror
// once it exists, so each is one undoable change.
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import type { Shortcuts } from './codemirror.client.ts';
import type { LineProblem } from './schema-help.ts';
import type { ContentSchemaOut } from './types.ts';
import type { FileBuffer } from './use-file-buffer.ts';
import { useSourceEditor } from './use-source-editor.ts';

export function useSourceView({
  host,
  hydrated,
  showForm,
  path,
  schema,
  lang,
  readOnly,
  problems,
  buffer,
  shortcuts,
  showSource,
}: {
  host: RefObject<HTMLDivElement>;
  hydrated: boolean;
  /** The form is shown instead of the source. */
  showForm: boolean;
  path: string;
  schema: ContentSchemaOut;
  lang: string;
  readOnly: boolean;
  problems: LineProblem[];
  buffer: Pick<FileBuffer, 'textRef' | 'changed'>;
  shortcuts: Shortcuts;
  /** Switches the editor to the source view. */
  showSource(): void;
}) {
  const { textRef, changed } = buffer;
  const goToLine = useRef<number | null>(null);
  const { editor, ready } = useSourceEditor({
    host,
    wanted: hydrated && !showForm,
    path,
    schema,
    lang,
    readOnly,
    problems,
    text: textRef,
    onChange: changed,
    shortcuts,
  });
  useEffect(() => {
    if (showForm || !editor.current) return;
    editor.current.view.requestMeasure();
    if (goToLine.current !== null) editor.current.goToLine(goToLine.current);
    goToLine.current = null;
  }, [showForm, ready, editor]);

  /** Shows a line of the source: at once in the source view, else once the source view is shown. */
  const showLine = (line: number) => {
    if (editor.current && !showForm) editor.current.goToLine(line);
    else goToLine.current = line;
    showSource();
  };
  /** Changes the buffer: through CodeMirror once it exists (one undoable change), else directly. */
  const edit = useCallback(
    (change: (text: string) => string) => {
      const next = change(textRef.current);
      textRef.current = next;
      if (editor.current) editor.current.replace(next);
      else changed(next);
    },
    [editor, textRef, changed],
  );
  const apply = useCallback((next: string) => edit(() => next), [edit]);
  return { ready, showLine, edit, apply };
}
