// Every entry, newest first, with kind / industry / lens filters kept in the URL (a GET form: works without JavaScript).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useLoaderData, useSubmit } from '@remix-run/react';
import { kinds, lensIds, tags } from '../i18n/vocabulary.ts';
import { entryFilters, pageLocale, readEntries, readLenses } from '../utils/data.server.ts';
import { pageMeta, rootData, webPageJsonLd } from '../utils/seo.ts';
import { EntryList, PageHeader } from '../components/Content.tsx';
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
        <FilterSelect name="kind" label={strings.filterKind} any={strings.filterAny} value={filters.kind} options={kinds.map((k) => [k, strings.kind[k]])} />
        <FilterSelect name="tag" label={strings.filterTag} any={strings.filterAny} value={filters.tag} options={tags.map((t) => [t, strings.tag[t]])} />
        <FilterSelect name="lens" label={strings.filterLens} any={strings.filterAny} value={filters.lens} options={lensIds.map((l) => [l, lensTitles[l] ?? l])} />
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
        <EntryList className="entry-list" entries={entries} headingLevel={2} />
      ) : (
        <p className="empty">{strings.noEntries}</p>
      )}
    </div>
  );
}

/** One filter of the form; `key` follows the value so a navigation resets the uncontrolled select. */
function FilterSelect({ name, label, any, value, options }: { name: string; label: string; any: string; value: string | undefined; options: Array<[string, string]> }) {
  return (
    <div className="field">
      <label htmlFor={`filter-${name}`}>{label}</label>
      <select id={`filter-${name}`} name={name} defaultValue={value ?? ''} key={`${name}:${value ?? ''}`}>
        <option value="">{any}</option>
        {options.map(([id, text]) => (
          <option key={id} value={id}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
