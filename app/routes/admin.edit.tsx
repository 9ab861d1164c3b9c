// The editor: one content file in CodeMirror, driven by admin_schema (completions of keys and allowed
// values), validated as it is typed against the whole tree (admin_validate of the unsaved text: marks at
// the lines, and a list that jumps to them), kept in the change set as it is typed, with an AI edit to
// accept or reject chunk by chunk, and a preview of the page as the site will show it.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { useLoaderData, useNavigate } from '@remix-run/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { callOperation, troubleOf, type Trouble } from '../admin/api.ts';
import { readChanges, useChangeSet } from '../admin/change-set.ts';
import { createSourceEditor, type SourceEditor } from '../admin/codemirror.client.ts';
import { templateFor } from '../admin/groups.ts';
import { kindOfPath, problemsOnLines } from '../admin/schema-help.ts';
import { asEditor, branchOf } from '../admin/session.server.ts';
import { currentSourceHash, translationOf } from '../admin/translation.server.ts';
import type { ProblemOut } from '../admin/types.ts';
import { ConsoleLink, consoleHref, Shortcut, timeAgo, TroubleNotice, useBranch } from '../admin/ui.tsx';
import { AiEditPanel } from '../admin/AiEditPanel.tsx';
import { PreviewPanel } from '../admin/PreviewPanel.tsx';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const path = url.searchParams.get('path');
  if (!path) throw redirect(consoleHref('/admin', branchOf(request)));
  const branch = branchOf(request);
  const schema = await asEditor(request, context, 'admin_schema', {});
  let file: { sha: string; content: string; ref: string } | null = null;
  try {
    const read = await asEditor(request, context, 'admin_read_file', { path, branch });
    file = { sha: read.sha, content: read.content, ref: read.ref };
  } catch (error) {
    // A file that does not exist yet is a new one; anything else (a path that is not content) is the page's error.
    if (!(error instanceof Response && error.status === 404)) throw error;
  }
  const translation = translationOf(path);
  let currentSource: string | undefined;
  if (translation) {
    try {
      currentSource = currentSourceHash(
        translation.sourcePath,
        (await asEditor(request, context, 'admin_read_file', { path: translation.sourcePath, branch })).content,
      );
    } catch {
      currentSource = undefined; // the English is missing: validation says so
    }
  }
  return { path, branch, schema, file, translation: translation ? { ...translation, currentSource } : undefined };
}

const VALIDATE_DELAY_MS = 300;
const SAVE_DELAY_MS = 250;

export default function EditorPage() {
  const { path, schema, file, translation } = useLoaderData<typeof loader>();
  const branch = useBranch();
  const navigate = useNavigate();
  const { changes, save, discard } = useChangeSet(branch);
  const pending = changes[path];
  const base = useMemo(() => ({ sha: file?.sha ?? null, content: file?.content ?? null }), [file]);
  const kind = kindOfPath(schema, path);
  const template = useMemo(
    () => templateFor(schema, kind?.kind.kind ?? '', translation ? { translationOf: { source: translation.sourcePath, hash: translation.currentSource } } : {}),
    [schema, kind, translation],
  );

  // The text the editor opens with: a pending edit from the change set (a reload or a crash lost nothing),
  // else the file, else a new file's template.
  const [restored] = useState(() => (typeof window === 'undefined' ? undefined : readChanges(branch)[path]));
  const initial = restored ? (restored.content ?? '') : (file?.content ?? template);
  const [text, setText] = useState(initial);
  const [problems, setProblems] = useState<ProblemOut[] | null>(null);
  const [validating, setValidating] = useState(false);
  const [trouble, setTrouble] = useState<Trouble | null>(null);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const [panel, setPanel] = useState<'ai' | 'preview' | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [narrow, setNarrow] = useState(false);
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<SourceEditor | null>(null);
  const deleted = pending?.content === null;

  const keep = useCallback(
    (value: string) => {
      save({ path, base: pending?.base ?? base, content: value });
      setSavedAt(Date.now());
    },
    [save, path, pending?.base, base],
  );
  const keepRef = useRef(keep);
  keepRef.current = keep;

  useEffect(() => {
    const query = window.matchMedia('(max-width: 1023px)');
    const update = () => setNarrow(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);

  // Mount CodeMirror once per file (and again when the screen crosses the editing width).
  useEffect(() => {
    if (!host.current) return;
    const instance = createSourceEditor({
      parent: host.current,
      doc: text,
      path,
      schema,
      label: `Source of ${path}`,
      readOnly: narrow || deleted,
      onChange: setText,
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
    // The editor owns the text once mounted; re-creating it on every keystroke would lose the cursor.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path, narrow, deleted]);

  // Keep every edit in the change set (debounced), so nothing typed is lost; what is still waiting is written
  // at once when the editor goes away (another console page, a reload, a closed tab).
  const unsaved = useRef<string | null>(null);
  useEffect(() => {
    if (deleted || narrow || text === (pending?.content ?? file?.content ?? template)) {
      unsaved.current = null;
      return;
    }
    unsaved.current = text;
    const timer = setTimeout(() => {
      unsaved.current = null;
      keep(text);
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, keep, pending?.content, file?.content, template, deleted, narrow]);
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
    if (deleted) return;
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
  }, [text, path, branch, deleted]);

  const placed = useMemo(() => problemsOnLines(problems ?? [], path, text), [problems, path, text]);
  useEffect(() => editor.current?.setProblems(placed.here), [placed]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && (panel || confirmDelete)) {
        setPanel(null);
        setConfirmDelete(false);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [panel, confirmDelete]);

  const stale = translation && translation.currentSource && !new RegExp(`^source:\\s*["']?${translation.currentSource}["']?\\s*$`, 'm').test(text);
  const movedOn = restored && restored.base.sha !== base.sha;

  return (
    <div className={`console-page editor-page${panel ? ' with-panel' : ''}`}>
      <div className="page-head">
        <nav aria-label="Breadcrumb" className="crumbs">
          <ConsoleLink to="/admin">Files</ConsoleLink> / <span>{path}</span>
        </nav>
        <h1>
          {file ? 'Edit' : 'New file'} <code>{path}</code>
        </h1>
        <p className="muted">
          {kind ? `${kind.translation ? `${kind.translation} translation of a ${kind.kind.kind}` : kind.kind.kind} · ` : ''}on {branch}
          {file ? ` · sha ${file.sha.slice(0, 7)}` : ' · not in the repository yet'}
        </p>
      </div>

      {restored && !deleted ? (
        <div className="notice" role="status">
          <p>
            Your edit from {timeAgo(restored.updatedAt)} was kept in this browser and is restored here.
            {movedOn ? ' The file has changed on the branch since you started; you will merge the two when you commit.' : ''}
          </p>
          <button
            type="button"
            className="button ghost small"
            onClick={() => {
              discard(path);
              editor.current?.replace(file?.content ?? template);
            }}
          >
            Discard my edit
          </button>
        </div>
      ) : null}
      {deleted ? (
        <div className="notice notice-warning" role="status">
          <p>This file is marked for deletion in your change set. It is deleted when you commit.</p>
          <button type="button" className="button ghost small" onClick={() => discard(path)}>
            Keep the file
          </button>
        </div>
      ) : null}
      {stale ? (
        <div className="notice notice-warning" role="status">
          <p>
            This translation is stale: the English ({translation.sourcePath}) changed since it was made. The publish run translates it again; if you have
            checked it by hand, mark it current.
          </p>
          <button
            type="button"
            className="button ghost small"
            onClick={() => editor.current?.replace(text.replace(/^source:.*$/m, `source: ${translation.currentSource}`))}
          >
            Mark as current
          </button>
          <ConsoleLink className="button ghost small" to="/admin/edit" query={{ path: translation.sourcePath }}>
            Open the English
          </ConsoleLink>
        </div>
      ) : null}

      <div className="editor-toolbar" role="toolbar" aria-label="Editor">
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
          disabled={narrow || deleted}
        >
          AI edit
        </button>
        <button
          type="button"
          className="button ghost small"
          aria-expanded={panel === 'preview'}
          onClick={() => setPanel(panel === 'preview' ? null : 'preview')}
        >
          Preview
        </button>
        {file ? (
          <button type="button" className="button ghost small danger" onClick={() => setConfirmDelete(true)} disabled={narrow || deleted}>
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
            Delete <code>{path}</code>? It joins your change set and is removed when you commit; history keeps it.
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
          <div className="editor-host" ref={host} />
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
                    <button type="button" className="link-button" onClick={() => editor.current?.goToLine(p.line)}>
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
            onApply={(next) => (editor.current?.replace(next), setPanel(null))}
            onClose={() => setPanel(null)}
          />
        ) : null}
        {panel === 'preview' ? <PreviewPanel path={path} branch={branch} text={text} onClose={() => setPanel(null)} /> : null}
      </div>
    </div>
  );
}
