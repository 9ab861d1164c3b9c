// The file browser: every content file of the branch, grouped as an editor thinks of them, with its title
// and path, its translations' state per locale, and any edit waiting in the change set. A filter box
// narrows the list (or to the files whose translations need work); a search looks through the text of every
// file in every language; each group can start a new file from its template.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useMemo, useState } from 'react';
import { useChangeSet } from '../admin/change-set.ts';
import { ContentSearchForm, SearchResults } from '../admin/ContentSearch.tsx';
import { FileGroupSection } from '../admin/FileGroupSection.tsx';
import { FileLink } from '../admin/FileLink.tsx';
import { groupFiles } from '../admin/groups.ts';
import { asEditor, branchOf } from '../admin/session.server.ts';
import { useBranch } from '../admin/ui.tsx';

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

export default function FileBrowser() {
  const { groups, files, search } = useLoaderData<typeof loader>();
  const branch = useBranch();
  const { changes } = useChangeSet(branch);
  const [filter, setFilter] = useState('');
  const [needsTranslation, setNeedsTranslation] = useState(false);
  const [creating, setCreating] = useState<string | null>(null);
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
      <ContentSearchForm branch={branch} search={search} />
      {search ? <SearchResults search={search} /> : null}
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
                <FileLink file={{ path }} />
                <span className="pending-mark">new, not committed</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {shown.map((group) => (
        <FileGroupSection
          key={group.id}
          group={group}
          branch={branch}
          changes={changes}
          existing={existing}
          creating={creating === group.id}
          onCreating={(open) => setCreating(open ? group.id : null)}
        />
      ))}
    </div>
  );
}
