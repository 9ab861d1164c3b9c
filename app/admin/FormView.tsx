// The form view of the buffer: the text read as fields (again only when it changes) and written back field by
// field, so the form and the source are two views of one text. Loaded with the form (yaml's Document API and the
// form come to 40 kB gzip, which the source view does not need).
import { useCallback, useMemo } from 'react';
import { bodyHint } from './groups.ts';
import { SchemaForm, type JsonSchema, type Vocabulary } from './SchemaForm.tsx';
import { readSource, withBody, withField } from './source-doc.ts';
import type { ProblemOut } from './types.ts';

export default function FormView({
  path,
  text,
  schema,
  vocabulary,
  bodyLabel,
  problems,
  readOnly,
  lang,
  english,
  edit,
  showSource,
}: {
  path: string;
  text: string;
  schema: JsonSchema;
  vocabulary: Vocabulary;
  bodyLabel: string;
  problems: readonly ProblemOut[];
  readOnly: boolean;
  lang: string;
  /** For a translation: its English's path and text, whose values the form shows beside each field. */
  english?: { path: string; text: string };
  /** Changes the buffer: `change` gets the text as it is at that moment (not as this render saw it). */
  edit(change: (text: string) => string): void;
  showSource(): void;
}) {
  const source = useMemo(() => readSource(path, text), [path, text]);
  const englishValues = useMemo(() => (english ? readSource(english.path, english.text).data : undefined), [english]);
  const order = useMemo(() => Object.keys((schema.properties as object | undefined) ?? {}), [schema]);
  const onField = useCallback(
    (pointer: Array<string | number>, value: unknown) => edit((now) => withField(path, now, pointer, value, order)),
    [edit, path, order],
  );
  // A textarea gives its text with \n line endings: a CRLF file gets its own back.
  const onBody = useCallback((body: string) => edit((now) => withBody(now, now.includes('\r\n') ? body.replace(/\r?\n/g, '\r\n') : body)), [edit]);
  const body = useMemo(
    () => (source.format === 'markdown' ? { value: source.body, label: bodyLabel, onChange: onBody, placeholder: bodyHint(bodyLabel) } : undefined),
    [source, bodyLabel, onBody],
  );

  if (!source.data) {
    return (
      <div className="notice notice-warning" role="status">
        <p>
          The form cannot read this text{source.error ? `: ${source.error.message}${source.error.line ? ` (line ${source.error.line})` : ''}` : ''}. Fix it in
          the source view.
        </p>
        <button type="button" className="button small" onClick={showSource}>
          Show the source
        </button>
      </div>
    );
  }
  return (
    <SchemaForm
      idPrefix="field"
      schema={schema}
      vocabulary={vocabulary}
      value={source.data}
      onChange={onField}
      body={body}
      problems={problems}
      readOnly={readOnly}
      lang={lang}
      english={englishValues}
    />
  );
}
