// Every entry, newest first, with kind / industry / lens filters kept in the URL (a GET form: works without JavaScript).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useLoaderData, useSubmit } from '@remix-run/react';
import { kinds, lensIds, tags } from '../i18n/vocabulary.ts';
import { entryFilters, pageLocale, readEntries, readLenses } from '../utils/data.server.ts';
import { pageMeta, rootData, webPageJsonLd } from '../utils/seo.ts';
import { EntryCard, PageHeader } from '../components/Content.tsx';
import { useHref, useRoot } from '../components/root-data.ts';
import { plural } from '../i18n/format.ts';

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  const filters = entryFilters(new URL(request.url).searchParams);
  const [list, lenses] = await Promise.all([readEntries(context, locale, filters), readLenses(context, locale)]);
  return { filters, entries: list.entries, total: list.total, lensTitles: Object.fromEntries(lenses.map((l) => [l.id, l.title])) };
}

export const meta: MetaFunction<typeof loader> = ({ matches, location }) => {
  const root = rootData(matches);
  if (!root) return [];
  const title = `${root.strings.entriesTitle} · ${root.site.subject.name}`;
  return pageMeta(matches, location, { title, description: root.strings.entriesIntro, keepQuery: true, jsonLd: webPageJsonLd(root, location.pathname, title, root.strings.entriesIntro, 'CollectionPage') });
};

export default function Entries() {
  const { filters, entries, total, lensTitles } = useLoaderData<typeof loader>();
  const { strings, locale } = useRoot();
  const href = useHref();
  const submit = useSubmit();
  const active = Boolean(filters.kind || filters.tag || filters.lens);
  return (
    <div className="page">
      <PageHeader title={strings.entriesTitle} lead={strings.entriesIntro} />
      <Form method="get" action={href('/entries')} className="filters" aria-label={strings.filtersLabel} role="search" onChange={(e) => submit(e.currentTarget, { preventScrollReset: true, replace: true })}>
        <div className="field">
          <label htmlFor="filter-kind">{strings.filterKind}</label>
          <select id="filter-kind" name="kind" defaultValue={filters.kind ?? ''} key={`k${filters.kind}`}>
            <option value="">{strings.filterAny}</option>
            {kinds.map((k) => (
              <option key={k} value={k}>
                {strings.kind[k]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-tag">{strings.filterTag}</label>
          <select id="filter-tag" name="tag" defaultValue={filters.tag ?? ''} key={`t${filters.tag}`}>
            <option value="">{strings.filterAny}</option>
            {tags.map((t) => (
              <option key={t} value={t}>
                {strings.tag[t]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-lens">{strings.filterLens}</label>
          <select id="filter-lens" name="lens" defaultValue={filters.lens ?? ''} key={`l${filters.lens}`}>
            <option value="">{strings.filterAny}</option>
            {lensIds.map((l) => (
              <option key={l} value={l}>
                {lensTitles[l] ?? l}
              </option>
            ))}
          </select>
        </div>
        <div className="field buttons">
          <button type="submit" className="button">
            {strings.filterApply}
          </button>
          {active ? (
            <a className="button ghost" href={href('/entries')}>
              {strings.filterClear}
            </a>
          ) : null}
        </div>
      </Form>
      <p className="result-count" role="status" data-testid="entry-count">
        {plural(locale, strings.entryCount, total)}
      </p>
      {entries.length ? (
        <ul className="entry-list">
          {entries.map((e) => (
            <li key={e.slug}>
              <EntryCard entry={e} headingLevel={2} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty">{strings.noEntries}</p>
      )}
    </div>
  );
}
