// Every entry, newest first, a page at a time, with kind / industry / lens filters kept in the URL (a GET form:
// works without JavaScript; changing a filter starts again at page 1).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useLoaderData, useSubmit } from '@remix-run/react';
import { kinds, lensIds, tags } from '../i18n/vocabulary.ts';
import { entryFilters, pageLocale, pageNumber, readEntryPage, readLenses } from '../utils/data.server.ts';
import { twinParts, type MarkdownTwin } from '../utils/discovery.server.ts';
import { pageMeta, rootData, rootTranslator, webPageJsonLd } from '../utils/seo.ts';
import { EntryList, PageHeader } from '../components/Content.tsx';
import { Pagination, pageHref } from '../components/Pagination.tsx';
import { useHref, useT } from '../components/root-data.ts';
import { useUrlValue } from '../components/use-url-value.ts';

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  const { searchParams } = new URL(request.url);
  const filters = entryFilters(searchParams);
  const [list, lenses] = await Promise.all([readEntryPage(context, locale, filters, pageNumber(searchParams)), readLenses(context, locale)]);
  return { filters, ...list, lensTitles: Object.fromEntries(lenses.map((l) => [l.id, l.title])) };
}

export const meta: MetaFunction<typeof loader> = ({ matches, location }) => {
  const root = rootData(matches);
  if (!root) return [];
  const t = rootTranslator(root);
  const title = `${t('entriesTitle')} · ${root.site.subject.name}`;
  return pageMeta(matches, location, {
    title,
    description: t('entriesIntro'),
    keepQuery: true,
    jsonLd: webPageJsonLd(root, location.pathname, title, t('entriesIntro'), 'CollectionPage'),
  });
};

export const markdown: MarkdownTwin<typeof loader> = (args) => {
  const { entryLine, footer, twin } = twinParts(args);
  const { page, pages } = args.data;
  // The twin of another page of this list: "/entries.md?page=2", filters kept.
  const pageTwin = (n: number) => twin('/entries') + pageHref('', args.url.search, n);
  const pageLinks = [
    ...(page > 1 ? [`- [${args.t('pagePrevious')}](${pageTwin(page - 1)})`] : []),
    ...(page < pages ? [`- [${args.t('pageNext')}](${pageTwin(page + 1)})`] : []),
  ];
  return [
    `# ${args.t('entriesTitle')}`,
    '',
    args.t('entriesIntro'),
    '',
    ...(pages > 1 ? [args.t('pageStatus', { page, pages }), ''] : []),
    ...args.data.entries.map(entryLine),
    ...(pageLinks.length ? ['', ...pageLinks] : []),
    ...footer('/entries'),
  ].join('\n');
};

export default function Entries() {
  const { filters, entries, total, page, pages, lensTitles } = useLoaderData<typeof loader>();
  const t = useT();
  const href = useHref();
  const submit = useSubmit();
  const active = Boolean(filters.kind || filters.tag || filters.lens);
  // With JavaScript a choice applies at once, in place of the list it changes (no history entry per choice, nor one
  // more for "Apply"), and the URL names only the filters chosen: /entries?kind=project, not ?kind=project&tag=&lens=.
  const filter = (form: HTMLFormElement) => {
    const chosen = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === 'string' && value) chosen.set(name, value);
    submit(chosen, { method: 'get', action: href('/entries'), preventScrollReset: true, replace: true });
  };
  return (
    <div className="page">
      <PageHeader title={t('entriesTitle')} lead={t('entriesIntro')} />
      <Form
        method="get"
        action={href('/entries')}
        className="filters"
        aria-label={t('filtersLabel')}
        role="search"
        onChange={(e) => filter(e.currentTarget)}
        onSubmit={(e) => {
          e.preventDefault();
          filter(e.currentTarget);
        }}
      >
        <FilterSelect name="kind" label={t('filterKind')} any={t('filterAny')} value={filters.kind} options={kinds.map((k) => [k, t(`kind.${k}`)])} />
        <FilterSelect name="tag" label={t('filterTag')} any={t('filterAny')} value={filters.tag} options={tags.map((tag) => [tag, t(`tag.${tag}`)])} />
        <FilterSelect name="lens" label={t('filterLens')} any={t('filterAny')} value={filters.lens} options={lensIds.map((l) => [l, lensTitles[l] ?? l])} />
        <div className="field buttons">
          <button type="submit" className="button">
            {t('filterApply')}
          </button>
          {active ? (
            <a className="button ghost" href={href('/entries')}>
              {t('filterClear')}
            </a>
          ) : null}
        </div>
      </Form>
      <p className="result-count" role="status" data-testid="entry-count">
        {t('entryCount', { n: total })}
      </p>
      {entries.length ? <EntryList layout="list" entries={entries} headingLevel={2} /> : <p className="empty">{t('noEntries')}</p>}
      <Pagination page={page} pages={pages} />
    </div>
  );
}

/** One filter of the form; a navigation sets the uncontrolled select to the URL's value (use-url-value.ts). */
function FilterSelect({
  name,
  label,
  any,
  value,
  options,
}: {
  name: string;
  label: string;
  any: string;
  value: string | undefined;
  options: Array<[string, string]>;
}) {
  const ref = useUrlValue<HTMLSelectElement>(value ?? '');
  return (
    <div className="field">
      <label htmlFor={`filter-${name}`}>{label}</label>
      <select id={`filter-${name}`} name={name} defaultValue={value ?? ''} ref={ref}>
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
