// The file browser: every content file of the branch, grouped as an editor thinks of them, with its title
// and path, its translations' state per locale, and any edit waiting in the change set. A filter box
// narrows the list (or to the files whose translations need work); a search looks through the text of every
// file in every language; each group can start a new file from its template.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { Form, useLoaderData, useNavigate } from '@remix-run/react';
import { useMemo, useState, type ReactNode } from 'react';
import { asEditor, branchOf } from '../admin/session.server.ts';
import { useChangeSet } from '../admin/change-set.ts';
import { groupFiles, translationPath } from '../admin/groups.ts';
import { ConsoleLink, consoleHref, TranslationBadges, useBranch } from '../admin/ui.tsx';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const branch = branchOf(request);
  const q = new URL(request.url).searchParams.get('q')?.trim() || undefined;
  const [list, schema, found] = await Promise.all([
    asEditor(request, context, 'admin_list_files', { branch }),
    asEditor(request, context, 'admin_schema', { branch }),
    q ? asEditor(request, context, 'admin_list_files', { branch, q }) : undefined,
  ]);
  return { branch, files: list.files, groups: groupFiles(schema, list.files), search: found ? { q: q!, ...found } : null };
}

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A file in a list: its title (or name) and path, opening its editor. */
function FileLink({ file, children }: { file: { path: string; title?: string }; children?: ReactNode }) {
  return (
    <ConsoleLink to="/admin/edit" query={{ path: file.path }} className="file-link">
      <span className="file-title">{file.title ?? file.path.split('/').pop()}</span>
      <span className="file-path">{file.path}</span>
      {children}
    </ConsoleLink>
  );
}

export default function FileBrowser() {
  const { groups, files, search } = useLoaderData<typeof loader>();
  const branch = useBranch();
  const { changes } = useChangeSet(branch);
  const navigate = useNavigate();
  const [filter, setFilter] = useState('');
  const [needsTranslation, setNeedsTranslation] = useState(false);
  const [creating, setCreating] = useState<string | null>(null);
  const [slug, setSlug] = useState('');
  const existing = useMemo(() => new Set(files.map((f) => f.path)), [files]);
  const query = filter.trim().toLowerCase();
  const untranslated = (f: (typeof files)[number]) => Boolean(f.translations && Object.values(f.translations).some((s) => s !== 'current'));
  const shown = groups
    .map((g) => ({
      ...g,
      files: g.files.filter(
        (f) => (!query || f.path.toLowerCase().includes(query) || (f.title ?? '').toLowerCase().includes(query)) && (!needsTranslation || untranslated(f)),
      ),
    }))
    .filter((g) => g.files.length || (!query && !needsTranslation));
  const newPaths = Object.keys(changes).filter((p) => !existing.has(p));
  const stale = files.filter(untranslated).length;

  return (
    <div className="console-page">
      <div className="page-head">
        <h1 tabIndex={-1}>Files on {branch}</h1>
        <p className="muted">
          {files.filter((f) => !f.path.startsWith('content/i18n/')).length} source files · {stale} with stale or missing translations (the publish run
          translates them)
        </p>
      </div>
      <Form method="get" className="toolbar content-search" role="search" aria-label="Search the content">
        {branch === 'main' ? <input type="hidden" name="branch" value="main" /> : null}
        <label htmlFor="content-search">Search the text</label>
        <input
          id="content-search"
          type="search"
          name="q"
          defaultValue={search?.q ?? ''}
          placeholder="Words in any file, in every language"
          autoComplete="off"
        />
        <button type="submit" className="button small">
          Search
        </button>
        {search ? (
          <ConsoleLink to="/admin" className="button ghost small">
            Clear the search
          </ConsoleLink>
        ) : null}
      </Form>
      {search ? (
        <section className="file-group search-results" aria-labelledby="search-title">
          <h2 id="search-title">
            {search.files.length
              ? `${search.files.length}${search.truncated ? '+' : ''} file${search.files.length === 1 ? '' : 's'} with “${search.q}”`
              : `No file holds “${search.q}”`}
          </h2>
          <ul className="file-list">
            {search.files.map((file) => (
              <li key={file.path} className="file-row">
                <FileLink file={file}>
                  {file.match ? (
                    <span className="file-match">
                      line {file.match.line}: {file.match.text}
                    </span>
                  ) : null}
                </FileLink>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="toolbar">
        <label htmlFor="filter">Filter</label>
        <input id="filter" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="Title or path" autoComplete="off" />
        <label className="check">
          <input type="checkbox" checked={needsTranslation} onChange={(e) => setNeedsTranslation(e.target.checked)} /> Needs translation ({stale})
        </label>
        <p className="legend muted" aria-label="Translation legend">
          Translations: <span className="badge badge-current">✓</span> up to date <span className="badge badge-stale">!</span> stale{' '}
          <span className="badge badge-missing">–</span> missing
        </p>
      </div>
      {newPaths.length ? (
        <section className="file-group" aria-labelledby="group-new">
          <h2 id="group-new">New files in your change set</h2>
          <ul className="file-list">
            {newPaths.map((path) => (
              <li key={path} className="file-row">
                <ConsoleLink to="/admin/edit" query={{ path }} className="file-link">
                  <span className="file-title">{path.split('/').pop()}</span>
                  <span className="file-path">{path}</span>
                </ConsoleLink>
                <span className="pending-mark">new, not committed</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {shown.map((group) => (
        <section key={group.id} className="file-group" aria-labelledby={`group-${group.id}`}>
          <div className="group-head">
            <h2 id={`group-${group.id}`}>
              {group.label} <span className="count">{group.files.length}</span>
            </h2>
            {group.folder ? (
              <button
                type="button"
                className="button ghost small"
                onClick={() => (setCreating(creating === group.id ? null : group.id), setSlug(''))}
                aria-expanded={creating === group.id}
              >
                New in {group.label.toLowerCase()}
              </button>
            ) : null}
          </div>
          {creating === group.id && group.folder ? (
            <form
              className="new-file"
              onSubmit={(e) => {
                e.preventDefault();
                const path = `${group.folder}/${slug}.md`;
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
              <p
                id={`slug-help-${group.id}`}
                className={slug && (!slugPattern.test(slug) || existing.has(`${group.folder}/${slug}.md`)) ? 'field-error' : 'muted'}
              >
                {slug && !slugPattern.test(slug)
                  ? 'Use lowercase letters, digits and single hyphens.'
                  : existing.has(`${group.folder}/${slug}.md`)
                    ? 'A file with that name exists already.'
                    : `Creates ${group.folder}/${slug || '…'}.md from the template.`}
              </p>
              <button type="submit" className="button small">
                Create
              </button>
            </form>
          ) : null}
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
      ))}
    </div>
  );
}
