// The source view's CodeMirror, loaded the first time the source is shown (a form-only visit never downloads
// it: 164 kB of the editor route's 317) and kept from then on, hidden in the form view, so its undo history
// lives as long as the page. Until it exists the page holds the text itself.
import { useEffect, useRef, useState, type MutableRefObject, type RefObject } from 'react';
import type { LineProblem } from './schema-help.ts';
import type { ContentSchemaOut } from './types.ts';
import type { Shortcuts, SourceEditor } from './codemirror.client.ts';

export function useSourceEditor(options: {
  host: RefObject<HTMLDivElement>;
  /** Create it now (the source view is shown, or something needs its lines). */
  wanted: boolean;
  path: string;
  schema: ContentSchemaOut;
  lang: string;
  readOnly: boolean;
  problems: LineProblem[];
  /** The text it opens on, read when it is made. */
  text: MutableRefObject<string>;
  onChange(text: string): void;
  shortcuts: Shortcuts;
}): { editor: MutableRefObject<SourceEditor | null>; ready: boolean } {
  const editor = useRef<SourceEditor | null>(null);
  const [ready, setReady] = useState(false);
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    if (!options.wanted || editor.current) return;
    let cancelled = false;
    void import('./codemirror.client.ts').then(({ createSourceEditor }) => {
      const { host, path, schema, lang, readOnly, text } = latest.current;
      if (cancelled || editor.current || !host.current) return;
      editor.current = createSourceEditor({
        parent: host.current,
        doc: text.current,
        path,
        schema,
        lang,
        label: `Source of ${path}`,
        readOnly,
        onChange: (value) => latest.current.onChange(value),
        shortcuts: {
          save: () => latest.current.shortcuts.save?.(),
          commit: () => latest.current.shortcuts.commit?.(),
        },
      });
      editor.current.setProblems(latest.current.problems);
      setReady(true);
    });
    return () => {
      cancelled = true;
    };
  }, [options.wanted]);
  useEffect(
    () => () => {
      editor.current?.destroy();
      editor.current = null;
    },
    [],
  );
  useEffect(() => editor.current?.setReadOnly(options.readOnly), [options.readOnly, ready]);
  useEffect(() => editor.current?.setProblems(options.problems), [options.problems, ready]);
  return { editor, ready };
}
