// The eleven role lenses, each with its evidence count and its first honest gap.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { pageLocale, readLenses } from '../utils/data.server.ts';
import { pageMeta, rootData, webPageJsonLd } from '../utils/seo.ts';
import { excerpt, markdownToText } from '../markdown/parse.ts';
import { PageHeader, recordLang } from '../components/Content.tsx';
import { useRoot } from '../components/root-data.ts';
import { plural } from '../i18n/format.ts';
import { sitePath } from '../i18n/locales.ts';

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  const lenses = await readLenses(context, locale);
  return {
    lenses: lenses.map((l) => ({ id: l.id, title: l.title, url: l.url, translated: l.translated, evidence: l.evidence.entries, pitch: excerpt(markdownToText(l.pitch), 180), gap: l.honestGaps[0] ?? '' })),
  };
}

export const meta: MetaFunction<typeof loader> = ({ matches, location }) => {
  const root = rootData(matches);
  if (!root) return [];
  const title = `${root.strings.lensesTitle} · ${root.site.subject.name}`;
  return pageMeta(matches, location, { title, description: root.strings.lensesPageIntro, jsonLd: webPageJsonLd(root, location.pathname, title, root.strings.lensesPageIntro, 'CollectionPage') });
};

export default function Lenses() {
  const { lenses } = useLoaderData<typeof loader>();
  const { strings, siteUrl, locale } = useRoot();
  return (
    <div className="page">
      <PageHeader title={strings.lensesTitle} lead={strings.lensesPageIntro} />
      <ul className="lens-cards">
        {lenses.map((l) => (
          <li key={l.id}>
            <article className="lens-card" lang={recordLang(l.translated, locale)}>
              <h2>
                <a href={sitePath(l.url, siteUrl)}>{l.title}</a>
              </h2>
              <p className="lens-count">{plural(locale, strings.evidenceCount, l.evidence)}</p>
              <p>{l.pitch}</p>
              <p className="gap-line">
                <strong>{strings.honestGaps}:</strong> {l.gap}
              </p>
            </article>
          </li>
        ))}
      </ul>
    </div>
  );
}
