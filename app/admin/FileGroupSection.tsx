// One group of the file browser (projects, skills, the brief…): its files with any edit waiting in the change set
// and their translations' state, and, for a folder, a new file started from the group's template.
import { useNavigate } from '@remix-run/react';
import { useState } from 'react';
import type { ChangeSet } from './change-set.ts';
import { FileLink } from './FileLink.tsx';
import { translationPath, type FileGroup } from './groups.ts';
import { consoleHref, TranslationBadges, type Branch } from './ui.tsx';

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function FileGroupSection({
  group,
  branch,
  changes,
  existing,
  creating,
  onCreating,
}: {
  group: FileGroup;
  branch: Branch;
  changes: ChangeSet;
  /** Every path on the branch: a new file may not take one. */
  existing: ReadonlySet<string>;
  /** The new-file form of this group is open. */
  creating: boolean;
  onCreating(open: boolean): void;
}) {
  return (
    <section className="file-group" aria-labelledby={`group-${group.id}`}>
      <div className="group-head">
        <h2 id={`group-${group.id}`}>
          {group.label} <span className="count">{group.files.length}</span>
        </h2>
        {group.folder ? (
          <button type="button" className="button ghost small" onClick={() => onCreating(!creating)} aria-expanded={creating}>
            New in {group.label.toLowerCase()}
          </button>
        ) : null}
      </div>
      {creating && group.folder ? <NewFileForm group={group} folder={group.folder} branch={branch} existing={existing} /> : null}
      <ul className="file-list">
        {group.files.map((file) => (
          <li key={file.path} className="file-row">
            <FileLink file={file} />
            {changes[file.path] ? <span className="pending-mark">{changes[file.path]!.content === null ? 'to be deleted' : 'edited'}</span> : null}
            {file.translations ? <TranslationBadges translations={file.translations} pathOf={(locale) => translationPath(file.path, locale)} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A new file's name (its slug), checked as it is typed; the editor opens on the group's template. */
function NewFileForm({ group, folder, branch, existing }: { group: FileGroup; folder: string; branch: Branch; existing: ReadonlySet<string> }) {
  const navigate = useNavigate();
  const [slug, setSlug] = useState('');
  const path = `${folder}/${slug}.md`;
  return (
    <form
      className="new-file"
      onSubmit={(e) => {
        e.preventDefault();
        if (!slugPattern.test(slug) || existing.has(path)) return;
        navigate(consoleHref('/admin/edit', branch, { path, kind: group.kind }));
      }}
    >
      <label htmlFor={`slug-${group.id}`}>File name (the slug)</label>
      <input
        id={`slug-${group.id}`}
        value={slug}
        onChange={(e) => setSlug(e.target.value.trim())}
        placeholder="e.g. travel-assistant"
        aria-describedby={`slug-help-${group.id}`}
        autoFocus
      />
      <p id={`slug-help-${group.id}`} className={slug && (!slugPattern.test(slug) || existing.has(path)) ? 'field-error' : 'muted'}>
        {slug && !slugPattern.test(slug)
          ? 'Use lowercase letters, digits and single hyphens.'
          : existing.has(path)
            ? 'A file with that name exists already.'
            : `Creates ${folder}/${slug || '…'}.md from the template.`}
      </p>
      <button type="submit" className="button small">
        Create
      </button>
    </form>
  );
}
