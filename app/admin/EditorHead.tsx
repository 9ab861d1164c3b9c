// The editor's heading: which file, of what kind, on which branch and at which sha, with a way to its history and
// (for a source file) the state of its translations.
import { translationPath } from './groups.ts';
import type { FileKindInfo } from './schema-help.ts';
import type { FileOut } from './types.ts';
import { ConsoleLink, TranslationBadges, type Branch } from './ui.tsx';

export function EditorHead({
  path,
  branch,
  file,
  kind,
  translationOf,
  translations,
}: {
  path: string;
  branch: Branch;
  /** The file on the branch; null for a file that does not exist yet. */
  file: { sha: string } | null;
  kind: FileKindInfo | undefined;
  /** The locale, when the file is a translation. */
  translationOf: string | undefined;
  translations: FileOut['translations'] | undefined;
}) {
  return (
    <div className="page-head">
      <nav aria-label="Breadcrumb" className="crumbs">
        <ConsoleLink to="/admin">Files</ConsoleLink> / <span>{path}</span>
      </nav>
      <h1 tabIndex={-1}>
        {file ? 'Edit' : 'New file'} <code>{path}</code>
      </h1>
      <p className="muted">
        {kind ? `${translationOf ? `${translationOf} translation of a ${kind.kind}` : kind.kind} · ` : ''}on {branch}
        {file ? ` · sha ${file.sha.slice(0, 7)} · ` : ' · not in the repository yet'}
        {file ? (
          <ConsoleLink to="/admin/history" query={{ path }}>
            History of this file
          </ConsoleLink>
        ) : null}
      </p>
      {translations ? <TranslationBadges translations={translations} pathOf={(l) => translationPath(path, l)} /> : null}
    </div>
  );
}
