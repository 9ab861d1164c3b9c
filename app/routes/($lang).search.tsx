// Search results: the best passages across every entry and document, in every language.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useLoaderData } from '@remix-run/react';
import { pageLocale, readSearch } from '../utils/data.server.ts';
import { mdText, twinParts, type MarkdownTwin } from '../utils/discovery.server.ts';
import { pageMeta, rootData, rootTranslator } from '../utils/seo.ts';
import { PageHeader } from '../components/Content.tsx';
import { useHref, useRoot, useT } from '../components/root-data.ts';
import { htmlLang, parseLocalePath, sitePath } from '../i18n/locales.ts';
import { Icon } from '../components/Icons.tsx';
import { useUrlValue } from '../components/use-url-value.ts';
import { markdownExcerpt } from '../markdown/tree.server.ts';

/** A passage is at most 600 characters but for a long paragraph; its text is cut past this, at a word. */
const PASSAGE_MAX = 700;

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  const q = (new URL(request.url).searchParams.get('q') ?? '').trim().slice(0, 500);
  // A passage is Markdown (a list, emphasis): shown as its readable text, as a preview is.
  const results = (await readSearch(context, locale, q)).map((r) => ({ ...r, passage: markdownExcerpt(r.passage, PASSAGE_MAX) }));
  return { q, results };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const root = rootData(matches);
  if (!root) return [];
  const t = rootTranslator(root);
  const title = data?.q ? `${t('searchResultsFor', { q: data.q })} · ${root.site.subject.name}` : `${t('searchTitle')} · ${root.site.subject.name}`;
  return [
    ...pageMeta(matches, location, { title, description: t('searchIntro'), keepQuery: true }),
    ...(data?.q ? [{ name: 'robots', content: 'noindex' }] : []),
  ];
};

/**
 * The visitor's query as inert Markdown text: one line, and every ASCII punctuation mark escaped (CommonMark
 * allows a backslash before any of them), so that a crafted `?q=` cannot add headings, links, images, HTML or
 * a new paragraph of instructions to a twin served from this site.
 */
const inertQuery = (q: string) => q.replace(/\s+/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');

export const markdown: MarkdownTwin<typeof loader> = (args) => {
  const { data, t, siteUrl } = args;
  const { results } = data;
  const q = inertQuery(data.q);
  const { footer } = twinParts(args);
  return [
    `# ${q ? t('searchResultsFor', { q }) : t('searchTitle')}`,
    '',
    ...(q && !results.length ? [t('noResults', { q })] : []),
    ...results.map((r) => `- [${mdText(r.title)}](${siteUrl}${sitePath(r.url, siteUrl)}): ${mdText(r.passage)}`),
    ...footer(`/search${data.q ? `?q=${encodeURIComponent(data.q)}` : ''}`),
  ].join('\n');
};

export default function Search() {
  const { q, results } = useLoaderData<typeof loader>();
  const { locale, siteUrl } = useRoot();
  const t = useT();
  const href = useHref();
  const input = useUrlValue<HTMLInputElement>(q);
  return (
    <div className="page narrow-wide">
      <PageHeader title={t('searchTitle')} lead={t('searchIntro')} />
      <Form method="get" action={href('/search')} className="search-form" role="search">
        <label htmlFor="search-q" className="sr-only">
          {t('searchLabel')}
        </label>
        <input id="search-q" type="search" name="q" defaultValue={q} ref={input} placeholder={t('searchPlaceholder')} maxLength={500} />
        <button type="submit" className="button">
          <Icon name="search" />
          {t('searchButton')}
        </button>
      </Form>
      {/* The count's live region is there before the first search, so that a screen reader reads that one too. */}
      <section aria-labelledby={q ? 'results-heading' : undefined} className="results">
        {q ? <h2 id="results-heading">{t('searchResultsFor', { q })}</h2> : null}
        <p className="result-count" role="status">
          {q ? t('resultCount', { n: results.length }) : ''}
        </p>
        {!q ? null : results.length ? (
          <ol className="result-list">
            {results.map((r, i) => {
              // Passages come from every language; mark the ones not in the page's own.
              const passageLocale = parseLocalePath(new URL(r.url, siteUrl).pathname).locale;
              return (
                <li key={`${r.slug}-${i}`} lang={passageLocale === locale ? undefined : htmlLang[passageLocale]}>
                  <p className="result-kind" lang={passageLocale === locale ? undefined : htmlLang[locale]}>
                    {r.kind === 'entry' ? t('resultEntry') : t('resultDocument')}
                  </p>
                  <h3>
                    <a href={sitePath(r.url, siteUrl)}>{r.title}</a>
                  </h3>
                  <p className="passage">{r.passage}</p>
                </li>
              );
            })}
          </ol>
        ) : (
          <p className="empty">{t('noResults', { q })}</p>
        )}
      </section>
    </div>
  );
}
