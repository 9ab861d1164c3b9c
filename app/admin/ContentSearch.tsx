// The file browser's search through the text of every file in every language: the form (a GET, so a search is a
// link) and the files it found, each with its first matching line.
import { Form } from '@remix-run/react';
import { FileLink } from './FileLink.tsx';
import type { FileListOut } from './types.ts';
import { ConsoleLink, type Branch } from './ui.tsx';

export interface SearchResult extends FileListOut {
  q: string;
}

export function ContentSearchForm({ branch, search }: { branch: Branch; search: SearchResult | null }) {
  return (
    <Form method="get" className="toolbar content-search" role="search" aria-label="Search the content">
      {branch === 'main' ? <input type="hidden" name="branch" value="main" /> : null}
      <label htmlFor="content-search">Search the text</label>
      <input id="content-search" type="search" name="q" defaultValue={search?.q ?? ''} placeholder="Words in any file, in every language" autoComplete="off" />
      <button type="submit" className="button small">
        Search
      </button>
      {search ? (
        <ConsoleLink to="/admin" className="button ghost small">
          Clear the search
        </ConsoleLink>
      ) : null}
    </Form>
  );
}

export function SearchResults({ search }: { search: SearchResult }) {
  return (
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
  );
}
