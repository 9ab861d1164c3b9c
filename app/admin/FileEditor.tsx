// One content file's editor, driven by admin_schema: a form generated from the schema and the raw source in
// CodeMirror, two views of one buffer (a change in one is in the other, unknown keys kept); validated as it is
// typed against the whole tree; kept in the change set as it is typed; an AI edit to accept chunk by chunk, a
// model's draft of its translations, and a preview of the page as the site will show it. Mounted once per path
// (the route keys it), so nothing here can carry one file's text to another.
import { useNavigate, useRevalidator } from '@remix-run/react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { callOperation, troubleOf, type Trouble } from './api.ts';
import { AiEditPanel } from './AiEditPanel.tsx';
import { readChanges, saveChange, useChangeSet, type PendingChange } from './change-set.ts';
import { EditorNotices } from './EditorNotices.tsx';
import { EnglishSource } from './EnglishSource.tsx';
import { translationPath } from './groups.ts';
import { PreviewPanel } from './PreviewPanel.tsx';
import type { JsonSchema } from './SchemaForm.tsx';
import { kindOfPath, problemsOnLines } from './schema-help.ts';
import { TranslateNow } from './TranslateNow.tsx';
import { useSourceEditor } from './use-source-editor.ts';
import type { ContentSchemaOut, FileOut, ProblemOut, TranslationOut } from './types.ts';
import { ConsoleLink, consoleHref, ProblemElsewhere, Shortcut, timeAgo, TranslationBadges, TroubleNotice, useHydrated, type Branch } from './ui.tsx';
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

/** The form, loaded with what only it needs (the YAML document model); the source view loads CodeMirror instead. */
const FormView = lazy(() => import('./FormView.tsx'));

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

  // The edit kept in this browser, if there is one, once the page is hydrated.
  useEffect(() => {
    const kept = readChanges(branch)[path];
    if (!kept) return;
    const start = kept.content ?? saved;
    setRestored(kept);
    setText(start);
    textRef.current = start;
    // Once per file: the route keys this component by path.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const placed = useMemo(() => problemsOnLines(problems ?? [], path, text), [problems, path, text]);
  const formSchema = (found?.translation ? kind?.translationJsonSchema : kind?.jsonSchema) as JsonSchema | undefined;
  const showForm = view === 'form' && Boolean(formSchema);
  const goToLine = useRef<number | null>(null);
  const { editor, ready } = useSourceEditor({
    host,
    wanted: hydrated && !showForm,
    path,
    schema,
    lang: locale,
    readOnly,
    problems: placed.here,
    text: textRef,
    onChange: (value) => {
      textRef.current = value;
      setText(value);
    },
    shortcuts: {
      save: () => keepRef.current(textRef.current),
      commit: () => navigate(consoleHref('/admin/review', branch)),
    },
  });
  useEffect(() => {
    if (showForm || !editor.current) return;
    editor.current.view.requestMeasure();
    if (goToLine.current !== null) editor.current.goToLine(goToLine.current);
    goToLine.current = null;
  }, [showForm, ready, editor]);

  /** Changes the buffer: through CodeMirror once it exists (one undoable change), else directly. */
  const edit = useCallback(
    (change: (text: string) => string) => {
      const next = change(textRef.current);
      textRef.current = next;
      if (editor.current) editor.current.replace(next);
      else setText(next);
    },
    [editor],
  );
  const apply = useCallback((next: string) => edit(() => next), [edit]);

  // Keep every edit in the change set (debounced), so nothing typed is lost; what is still waiting is written
  // at once when the editor goes away (another page, a reload, a closed tab).
  const unsaved = useRef<string | null>(null);
  // An edit that left the change set from elsewhere (committed or discarded in another tab) while this editor shows
  // it is not typed again: the page's data is read anew, and only a new keystroke is a new edit.
  const { revalidate } = useRevalidator();
  const revalidateRef = useRef(revalidate);
  revalidateRef.current = revalidate;
  const lastPending = useRef(pending);
  const settled = useRef<string | null>(null);
  useEffect(() => {
    const before = lastPending.current;
    lastPending.current = pending;
    if (before?.content != null && !pending && textRef.current === before.content) {
      settled.current = before.content;
      revalidateRef.current();
    }
  }, [pending]);
  useEffect(() => {
    if (!hydrated || deleted || text === (pending?.content ?? saved) || text === settled.current) {
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

  // Validate the unsaved text against the whole tree as it would be (a file marked for deletion has no text to check).
  useEffect(() => {
    if (deleted || !hydrated) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setValidating(true);
      callOperation('admin_validate', { path, content: text, branch }, controller.signal)
        .then((result) => {
          if (controller.signal.aborted) return; // the text has changed since: its own check is on its way
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
      setValidating(false);
    };
  }, [text, path, branch, deleted, hydrated]);

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

  const ownProblems = useMemo(() => (problems ?? []).filter((p) => !p.path || p.path === path), [problems, path]);
  const english = useMemo(() => (translation?.source.now ? { path: translation.sourcePath, text: translation.source.now } : undefined), [translation]);
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
        onUndoDiscard={(change) => {
          saveChange(branch, change);
          apply(change.content ?? saved);
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
          {/* After hydration only: a lazy part still loading while the page hydrates would be rendered again in the
              browser (React #421) at the first update, and a form is of no use before the page can take input. */}
          {showForm && !hydrated ? <p className="muted">Loading the form…</p> : null}
          {showForm && hydrated ? (
            <Suspense fallback={<p className="muted">Loading the form…</p>}>
              <FormView
                path={path}
                text={text}
                schema={formSchema!}
                vocabulary={schema.vocabulary}
                bodyLabel={kind?.body ?? 'Body'}
                problems={ownProblems}
                readOnly={readOnly}
                lang={locale}
                english={english}
                edit={edit}
                showSource={() => setView('source')}
              />
            </Suspense>
          ) : null}
          {!showForm && !ready ? <p className="muted">Loading the source editor…</p> : null}
          <div className="editor-host" ref={host} hidden={showForm} data-path={path} />
          <section className="problems" aria-labelledby="problems-title">
            <h2 id="problems-title">Problems</h2>
            {deleted ? (
              <p className="muted">Marked for deletion: the whole change set is checked on Review.</p>
            ) : problems === null ? (
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
                        if (editor.current && !showForm) editor.current.goToLine(p.line);
                        else goToLine.current = p.line;
                        setView('source');
                      }}
                    >
                      Line {p.line}
                    </button>{' '}
                    {p.message}
                  </li>
                ))}
                {placed.elsewhere.map((p, i) => (
                  <li key={`e${i}`}>
                    <ProblemElsewhere problem={p} />
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
