// One role lens: the case for it and its honest gaps side by side, with equal weight, then the evidence.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { kinds } from '../i18n/vocabulary.ts';
import { pageLocale, readEntries, readLens } from '../utils/data.server.ts';
import { pageMeta, rootData, webPageJsonLd } from '../utils/seo.ts';
import { Markdown } from '../markdown/Markdown.tsx';
import { excerpt, markdownToText } from '../markdown/parse.ts';
import { EntryList, FallbackNote, recordLang } from '../components/Content.tsx';
import { useHref, useRoot } from '../components/root-data.ts';
import { plural } from '../i18n/format.ts';
import { htmlLang } from '../i18n/locales.ts';
import type { LensId } from '../../operations/contract/shared.ts';

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  const lens = await readLens(context, locale, params.id!);
  const evidence = await readEntries(context, locale, { lens: lens.id as LensId });
  return { lens, entries: evidence.entries };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const root = rootData(matches);
  if (!root || !data) return [];
  const title = `${data.lens.title} · ${root.strings.lensEyebrow} · ${root.site.subject.name}`;
  const description = excerpt(markdownToText(data.lens.pitch), 200);
  return pageMeta(matches, location, { title, description, type: 'article', jsonLd: webPageJsonLd(root, location.pathname, data.lens.title, description) });
};

const evidenceKey = { experience: 'experience', project: 'projects', community: 'community', education: 'education' } as const;

export default function LensPage() {
  const { lens, entries } = useLoaderData<typeof loader>();
  const { strings, locale } = useRoot();
  const href = useHref();
  const content = recordLang(lens.translated, locale);
  const ui = content ? htmlLang[locale] : undefined;
  return (
    <article className="page lens-page">
      <nav aria-label={strings.breadcrumb} className="breadcrumb">
        <ol>
          <li>
            <a href={href('/lenses')}>{strings.lensesTitle}</a>
          </li>
        </ol>
      </nav>
      <FallbackNote translated={lens.translated} />
      <header className="page-header">
        <p className="eyebrow">{strings.lensEyebrow}</p>
        <h1 lang={content}>{lens.title}</h1>
        <ul className="evidence-stats" aria-label={strings.evidence}>
          <li>
            <strong>{plural(locale, strings.evidenceCount, lens.evidence.entries)}</strong>
          </li>
          {kinds
            .filter((k) => lens.evidence[evidenceKey[k]] > 0)
            .map((k) => (
              <li key={k}>
                {strings.kindPlural[k]}: {lens.evidence[evidenceKey[k]]}
              </li>
            ))}
        </ul>
      </header>
      <div className="case-gaps" lang={content}>
        <section className="case" aria-labelledby="case-heading">
          <h2 id="case-heading" lang={ui}>
            {strings.theCase}
          </h2>
          <Markdown source={lens.pitch} headingOffset={2} />
        </section>
        <section className="gaps" aria-labelledby="gaps-heading" data-testid="honest-gaps">
          <h2 id="gaps-heading" lang={ui}>
            {strings.honestGaps}
          </h2>
          <p className="section-intro" lang={ui}>
            {strings.honestGapsIntro}
          </p>
          <ul className="bullets">
            {lens.honestGaps.map((gap, i) => (
              <li key={i}>{gap}</li>
            ))}
          </ul>
        </section>
      </div>
      <section className="section" aria-labelledby="evidence-heading">
        <h2 id="evidence-heading" className="section-title">
          {strings.evidence}
        </h2>
        <p className="section-intro">{strings.evidenceIntro}</p>
        <EntryList className="entry-list" entries={entries} />
      </section>
    </article>
  );
}
