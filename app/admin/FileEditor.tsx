// One content file's editor, driven by admin_schema: a form generated from the schema and the raw source in
// CodeMirror, two views of one buffer (a change in one is in the other, unknown keys kept); validated as it is
// typed against the whole tree; kept in the change set as it is typed; an AI edit to accept chunk by chunk, a
// model's draft of its translations, and a preview of the page as the site will show it. Mounted once per path
// (the route keys it), so nothing here can carry one file's text to another.
import { useNavigate } from '@remix-run/react';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useMayPublish } from './account.tsx';
import { saveChange, useChangeSet } from './change-set.ts';
import { DeleteConfirm } from './DeleteConfirm.tsx';
import { EditorHead } from './EditorHead.tsx';
import { EditorNotices } from './EditorNotices.tsx';
import { EditorProblems } from './EditorProblems.tsx';
import { EditorSidePanel } from './EditorSidePanel.tsx';
import { EditorToolbar, type EditorPanel } from './EditorToolbar.tsx';
import { FormPane } from './FormPane.tsx';
import { MediaPicker } from './MediaPicker.tsx';
import { useEditorView, useMainUnlocked, useNarrowScreen } from './editor-prefs.ts';
import type { JsonSchema } from './SchemaForm.tsx';
import { kindOfPath, problemsOnLines } from './schema-help.ts';
import type { ContentSchemaOut, FileOut, TranslationOut } from './types.ts';
import { consoleHref, TroubleNotice, useHydrated, type Branch } from './ui.tsx';
import { useEditorKeys } from './use-editor-keys.ts';
import { useFileBuffer } from './use-file-buffer.ts';
import { useLiveValidation } from './use-live-validation.ts';
import { useSourceView } from './use-source-view.ts';

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

export function FileEditor({ path, branch, schema, file, template, translation, translations }: FileEditorProps) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const { changes, save, discard } = useChangeSet(branch);
  const pending = changes[path];
  const base = useMemo(() => ({ sha: file?.sha ?? null, content: file?.content ?? null }), [file]);
  const found = kindOfPath(schema, path);
  const locale = translation?.locale ?? found?.translation ?? 'en';
  const saved = file?.content ?? template;
  const [panel, setPanel] = useState<EditorPanel>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [view, setView] = useEditorView();
  const [mainUnlocked, unlockMain] = useMainUnlocked();
  const narrow = useNarrowScreen();
  const host = useRef<HTMLDivElement>(null);
  const main = useRef<HTMLDivElement>(null);
  const deleted = pending?.content === null;
  const mayPublish = useMayPublish();
  // main is the live site: locked until a publisher unlocks it; an editor cannot (the service refuses their commit).
  const lockedOnMain = branch === 'main' && (!mainUnlocked || !mayPublish);
  const readOnly = !hydrated || narrow || deleted || lockedOnMain;
  const buffer = useFileBuffer({ path, branch, base, saved, pending, save, hydrated, deleted });
  const { text, textRef, keep } = buffer;
  const { problems, validating, trouble, dismissTrouble } = useLiveValidation({ path, branch, text, enabled: hydrated && !deleted });
  const review = useCallback(() => navigate(consoleHref('/admin/review', branch)), [navigate, branch]);

  const placed = useMemo(() => problemsOnLines(problems ?? [], path, text), [problems, path, text]);
  const formSchema = (found?.translation ? found.kind.translationJsonSchema : found?.kind.jsonSchema) as JsonSchema | undefined;
  const showForm = view === 'form' && Boolean(formSchema);
  const { ready, showLine, edit, apply } = useSourceView({
    host,
    hydrated,
    showForm,
    path,
    schema,
    lang: locale,
    readOnly,
    problems: placed.here,
    buffer,
    shortcuts: { save: () => keep(textRef.current), commit: review },
    showSource: () => setView('source'),
  });
  const closePanels = () => (setPanel(null), setConfirmDelete(false));
  useEditorKeys({ closable: Boolean(panel || confirmDelete), close: closePanels, canSave: !readOnly, save: () => keep(textRef.current), review });

  return (
    <div className={`console-page editor-page${panel || translation ? ' with-panel' : ''}`}>
      <EditorHead path={path} branch={branch} file={file} kind={found?.kind} translationOf={found?.translation} translations={translations} />
      <EditorNotices
        path={path}
        branch={branch}
        restored={buffer.restored && !deleted ? buffer.restored : null}
        movedOn={Boolean(buffer.restored && buffer.restored.base.sha !== base.sha)}
        deleted={deleted}
        lockedOnMain={lockedOnMain}
        translation={translation}
        text={text}
        onUnlockMain={mayPublish ? unlockMain : undefined}
        onDiscard={() => {
          discard(path);
          buffer.forgetRestored();
          apply(saved);
        }}
        onUndoDiscard={(change) => {
          saveChange(branch, change);
          apply(change.content ?? saved);
        }}
        onKeep={() => discard(path)}
        onReplace={apply}
      />
      <EditorToolbar
        path={path}
        branch={branch}
        text={text}
        hasForm={Boolean(formSchema)}
        view={view}
        onView={setView}
        status={{ deleted, pending: Boolean(pending), savedAt: buffer.savedAt, validating, problems }}
        panel={panel}
        onPanel={setPanel}
        readOnly={readOnly}
        translation={translation}
        translations={translations}
        onDraft={apply}
        onDelete={file ? () => setConfirmDelete(true) : undefined}
      />
      {confirmDelete ? (
        <DeleteConfirm
          path={path}
          translations={translations}
          onDelete={() => {
            save({ path, base: pending?.base ?? base, content: null });
            setConfirmDelete(false);
          }}
          onCancel={() => setConfirmDelete(false)}
        />
      ) : null}
      {trouble ? <TroubleNotice trouble={trouble} onDismiss={dismissTrouble} /> : null}
      <MediaPicker branch={branch} target={main} disabled={!hydrated || lockedOnMain} />

      <div className="editor-layout">
        <div className="editor-main" ref={main}>
          {showForm ? (
            <FormPane
              hydrated={hydrated}
              path={path}
              text={text}
              schema={formSchema!}
              vocabulary={schema.vocabulary}
              bodyLabel={found?.kind.body ?? 'Body'}
              problems={problems}
              translation={translation}
              readOnly={readOnly}
              lang={locale}
              edit={edit}
              showSource={() => setView('source')}
            />
          ) : null}
          {!showForm && !ready ? <p className="muted">Loading the source editor…</p> : null}
          <div className="editor-host" ref={host} hidden={showForm} data-path={path} />
          <EditorProblems deleted={deleted} problems={problems} placed={placed} onLine={showLine} />
        </div>
        <EditorSidePanel panel={panel} onClose={() => setPanel(null)} path={path} branch={branch} text={text} translation={translation} onApply={apply} />
      </div>
    </div>
  );
}
