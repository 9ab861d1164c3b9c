// One content file's editor, driven by admin_schema: a form generated from the schema and the raw source in
// CodeMirror, two views of one buffer (a change in one is in the other, unknown keys kept); validated as it is
// typed against the whole tree; kept in the change set as it is typed; an AI edit to accept chunk by chunk, a
// model's draft of its translations, and a preview of the page as the site will show it. Mounted once per path
// (the route keys it), so nothing here can carry one file's text to another.
import { useNavigate } from '@remix-run/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { callOperation, troubleOf, type Trouble } from './api.ts';
import { AiEditPanel } from './AiEditPanel.tsx';
import { readChanges, useChangeSet, type PendingChange } from './change-set.ts';
import { createSourceEditor, type SourceEditor } from './codemirror.client.ts';
import { EditorNotices } from './EditorNotices.tsx';
import { EnglishSource } from './EnglishSource.tsx';
import { translationPath } from './groups.ts';
import { PreviewPanel } from './PreviewPanel.tsx';
import { SchemaForm } from './SchemaForm.tsx';
import { kindOfPath, problemsOnLines } from './schema-help.ts';
import { readSource, withBody, withField } from './source-doc.ts';
import { TranslateNow } from './TranslateNow.tsx';
import type { ContentSchemaOut, FileOut, ProblemOut, TranslationOut } from './types.ts';
import { ConsoleLink, consoleHref, Shortcut, timeAgo, TranslationBadges, TroubleNotice, useHydrated, type Branch } from './ui.tsx';
import { useEditorView, useMainUnlocked, useNarrowScreen } from './editor-prefs.ts';

export interface FileEditorProps {
  path: string;
  branch: Branch;
  schema: ContentSchemaOut;
  /** The file on the branch; null for a file that does not exist yet. */
  file: { sha: string; content: string; ref: string } | null;
  /** A new file's starting text. */
  template: string;
  /** For a translation: its source and state (admin_translation). */
  translation?: TranslationOut;
  /** For a source file: its translations' states by locale. */
  translations?: FileOut['translations'];
}

const VALIDATE_DELAY_MS = 300;
const SAVE_DELAY_MS = 250;

export function FileEditor({ path, branch, schema, file, template, translation, translations }: FileEditorProps) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const { changes, save, discard } = useChangeSet(branch);
  const pending = changes[path];
  const base = useMemo(() => ({ sha: file?.sha ?? null, content: file?.content ?? null }), [file]);
  const found = kindOfPath(schema, path);
  const kind = found?.kind;
  const locale = translation?.locale ?? found?.translation ?? 'en';
  const saved = file?.content ?? template;

  // The buffer. The server and the first render in the browser show the file as the branch has it; the edit kept
  // in this browser (if any) is restored once the editor mounts, so the two renders agree.
  const [text, setText] = useState(saved);
  const textRef = useRef(text);
  const [restored, setRestored] = useState<PendingChange | null>(null);
  const [problems, setProblems] = useState<ProblemOut[] | null>(null);
  const [validating, setValidating] = useState(false);
  const [trouble, setTrouble] = useState<Trouble | null>(null);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const [panel, setPanel] = useState<'ai' | 'preview' | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [view, setView] = useEditorView();
  const [mainUnlocked, unlockMain] = useMainUnlocked();
  const narrow = useNarrowScreen();
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<SourceEditor | null>(null);
  const deleted = pending?.content === null;
  const lockedOnMain = branch === 'main' && !mainUnlocked;
  const readOnly = !hydrated || narrow || deleted || lockedOnMain;

  const keep = useCallback(
    (value: string) => {
      save({ path, base: pending?.base ?? base, content: value });
      setSavedAt(Date.now());
    },
    [save, path, pending?.base, base],
  );
  const keepRef = useRef(keep);
  keepRef.current = keep;

  /** Makes the buffer `next`: through CodeMirror when it is mounted (one undoable change), else directly. */
  const apply = useCallback((next: string) => {
    textRef.current = next;
    if (editor.current) editor.current.replace(next);
    else setText(next);
  }, []);

  // CodeMirror, once for this file, opening on the edit kept in this browser if there is one.
  useEffect(() => {
    if (!host.current) return;
    const kept = readChanges(branch)[path];
    const start = kept ? (kept.content ?? saved) : textRef.current;
    if (kept) {
      setRestored(kept);
      setText(start);
      textRef.current = start;
    }
    const instance = createSourceEditor({
      parent: host.current,
      doc: start,
      path,
      schema,
      lang: locale,
      label: `Source of ${path}`,
      readOnly: true,
      onChange: (value) => {
        textRef.current = value;
        setText(value);
      },
      shortcuts: {
        save: () => keepRef.current(instance.view.state.doc.toString()),
        commit: () => navigate(consoleHref('/admin/review', branch)),
      },
    });
    editor.current = instance;
    return () => {
      instance.destroy();
      editor.current = null;
    };
    // Made once per file: the route keys this component by path, and the editor owns the text from here on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => editor.current?.setReadOnly(readOnly), [readOnly]);
  useEffect(() => {
    if (view === 'source') editor.current?.view.requestMeasure();
  }, [view]);

  // Keep every edit in the change set (debounced), so nothing typed is lost; what is still waiting is written
  // at once when the editor goes away (another page, a reload, a closed tab).
  const unsaved = useRef<string | null>(null);
  useEffect(() => {
    if (!hydrated || deleted || text === (pending?.content ?? saved)) {
      unsaved.current = null;
      return;
    }
    unsaved.current = text;
    const timer = setTimeout(() => {
      unsaved.current = null;
      keep(text);
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, keep, pending?.content, saved, deleted, hydrated]);
  useEffect(() => {
    const flush = () => {
      if (unsaved.current !== null) keepRef.current(unsaved.current);
      unsaved.current = null;
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, []);

  // Validate the unsaved text against the whole tree as it would be.
  useEffect(() => {
    if (deleted || !hydrated) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setValidating(true);
      callOperation('admin_validate', { path, content: text, branch }, controller.signal)
        .then((result) => {
          setProblems(result.problems);
          setTrouble(null);
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) setTrouble(troubleOf(error));
        })
        .finally(() => !controller.signal.aborted && setValidating(false));
    }, VALIDATE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, path, branch, deleted, hydrated]);

  const placed = useMemo(() => problemsOnLines(problems ?? [], path, text), [problems, path, text]);
  useEffect(() => editor.current?.setProblems(placed.here), [placed]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && (panel || confirmDelete)) {
        setPanel(null);
        setConfirmDelete(false);
      }
      // The shortcuts work in the form as in the source (where CodeMirror has handled them already).
      if (!(event.metaKey || event.ctrlKey) || event.defaultPrevented) return;
      if (event.key === 's') {
        event.preventDefault();
        if (!readOnly) keepRef.current(textRef.current);
      } else if (event.key === 'Enter') {
        event.preventDefault();
        navigate(consoleHref('/admin/review', branch));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [panel, confirmDelete, readOnly, navigate, branch]);

  // The form: the buffer read as fields (re-read only when the text changes), written back field by field.
  const source = useMemo(() => readSource(path, text), [path, text]);
  const formSchema = found?.translation ? kind?.translationJsonSchema : kind?.jsonSchema;
  const order = useMemo(() => Object.keys((formSchema?.properties as object | undefined) ?? {}), [formSchema]);
  const english = useMemo(() => (translation?.source.now ? readSource(translation.sourcePath, translation.source.now).data : undefined), [translation]);
  const ownProblems = useMemo(() => (problems ?? []).filter((p) => !p.path || p.path === path), [problems, path]);
  const onField = useCallback(
    (pointer: Array<string | number>, value: unknown) => apply(withField(path, textRef.current, pointer, value, order)),
    [apply, path, order],
  );
  const onBody = useCallback((body: string) => apply(withBody(textRef.current, body)), [apply]);
  const showForm = view === 'form' && Boolean(formSchema);
  const existingTranslations = Object.entries(translations ?? {}).filter(([, state]) => state !== 'missing');

  return (
    <div className={`console-page editor-page${panel || translation ? ' with-panel' : ''}`}>
      <div className="page-head">
        <nav aria-label="Breadcrumb" className="crumbs">
          <ConsoleLink to="/admin">Files</ConsoleLink> / <span>{path}</span>
        </nav>
        <h1 tabIndex={-1}>
          {file ? 'Edit' : 'New file'} <code>{path}</code>
        </h1>
        <p className="muted">
          {kind ? `${found?.translation ? `${found.translation} translation of a ${kind.kind}` : kind.kind} · ` : ''}on {branch}
          {file ? ` · sha ${file.sha.slice(0, 7)} · ` : ' · not in the repository yet'}
          {file ? (
            <ConsoleLink to="/admin/history" query={{ path }}>
              History of this file
            </ConsoleLink>
          ) : null}
        </p>
        {translations ? <TranslationBadges translations={translations} pathOf={(l) => translationPath(path, l)} /> : null}
      </div>

      <EditorNotices
        path={path}
        branch={branch}
        restored={restored && !deleted ? restored : null}
        movedOn={Boolean(restored && restored.base.sha !== base.sha)}
        deleted={deleted}
        lockedOnMain={lockedOnMain}
        translation={translation}
        text={text}
        onUnlockMain={unlockMain}
        onDiscard={() => {
          discard(path);
          setRestored(null);
          apply(saved);
        }}
        onKeep={() => discard(path)}
        onReplace={apply}
      />

      <div className="editor-toolbar" role="toolbar" aria-label="Editor">
        {formSchema ? (
          <div role="group" aria-label="View" className="segmented">
            {(['form', 'source'] as const).map((v) => (
              <button key={v} type="button" aria-pressed={view === v} className={view === v ? 'active' : ''} onClick={() => setView(v)}>
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
          onClick={() => setPanel(panel === 'ai' ? null : 'ai')}
          disabled={readOnly}
        >
          AI edit
        </button>
        <TranslateNow path={path} branch={branch} text={text} translation={translation} translations={translations} disabled={readOnly} onDraft={apply} />
        <button
          type="button"
          className="button ghost small"
          aria-expanded={panel === 'preview'}
          onClick={() => setPanel(panel === 'preview' ? null : 'preview')}
        >
          Preview
        </button>
        {file ? (
          <button type="button" className="button ghost small danger" onClick={() => setConfirmDelete(true)} disabled={readOnly}>
            Delete…
          </button>
        ) : null}
        <ConsoleLink to="/admin/review" className="button small">
          Review and commit <Shortcut keys="Mod-Enter" />
        </ConsoleLink>
      </div>

      {confirmDelete ? (
        <div className="notice notice-warning" role="alertdialog" aria-labelledby="delete-title">
          <p id="delete-title">
            Delete <code>{path}</code>
            {existingTranslations.length
              ? ` and its ${existingTranslations.length} translation${existingTranslations.length === 1 ? '' : 's'} (${existingTranslations.map(([l]) => l).join(', ')})`
              : ''}
            ? It joins your change set and is removed when you commit; history keeps it.
          </p>
          <button
            type="button"
            className="button small danger"
            autoFocus
            onClick={() => {
              save({ path, base: pending?.base ?? base, content: null });
              setConfirmDelete(false);
            }}
          >
            Delete
          </button>
          <button type="button" className="button ghost small" onClick={() => setConfirmDelete(false)}>
            Cancel <Shortcut keys="Escape" />
          </button>
        </div>
      ) : null}
      {trouble ? <TroubleNotice trouble={trouble} onDismiss={() => setTrouble(null)} /> : null}

      <div className="editor-layout">
        <div className="editor-main">
          {showForm ? (
            source.data ? (
              <SchemaForm
                idPrefix="field"
                schema={formSchema!}
                vocabulary={schema.vocabulary}
                value={source.data}
                onChange={onField}
                body={source.format === 'markdown' ? { value: source.body, label: kind?.body ?? 'Body', onChange: onBody } : undefined}
                problems={ownProblems}
                readOnly={readOnly}
                lang={locale}
                english={english}
              />
            ) : (
              <div className="notice notice-warning" role="status">
                <p>
                  The form cannot read this text{source.error ? `: ${source.error.message}${source.error.line ? ` (line ${source.error.line})` : ''}` : ''}. Fix
                  it in the source view.
                </p>
                <button type="button" className="button small" onClick={() => setView('source')}>
                  Show the source
                </button>
              </div>
            )
          ) : null}
          <div className="editor-host" ref={host} hidden={showForm} />
          <section className="problems" aria-labelledby="problems-title">
            <h2 id="problems-title">Problems</h2>
            {problems === null ? (
              <p className="muted">Checking the file against the whole tree…</p>
            ) : !problems.length ? (
              <p className="ok">The whole tree is valid with this text.</p>
            ) : (
              <ul>
                {placed.here.map((p, i) => (
                  <li key={`h${i}`}>
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => {
                        setView('source');
                        requestAnimationFrame(() => editor.current?.goToLine(p.line));
                      }}
                    >
                      Line {p.line}
                    </button>{' '}
                    {p.message}
                  </li>
                ))}
                {placed.elsewhere.map((p, i) => (
                  <li key={`e${i}`}>
                    <ConsoleLink to="/admin/edit" query={{ path: p.path }}>
                      {p.path}
                      {p.line ? `:${p.line}` : ''}
                    </ConsoleLink>{' '}
                    {p.message}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
        {panel === 'ai' ? (
          <AiEditPanel
            path={path}
            branch={branch}
            text={text}
            onApply={(next) => {
              apply(next);
              setPanel(null);
            }}
            onClose={() => setPanel(null)}
          />
        ) : panel === 'preview' ? (
          <PreviewPanel path={path} branch={branch} text={text} onClose={() => setPanel(null)} />
        ) : translation ? (
          <EnglishSource translation={translation} />
        ) : null}
      </div>
    </div>
  );
}
