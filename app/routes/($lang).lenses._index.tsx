// The eleven role lenses, each with its evidence count and its first honest gap.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { pageLocale, readLenses } from '../utils/data.server.ts';
import { mdText, twinParts, type MarkdownTwin } from '../utils/discovery.server.ts';
import { pageMeta, rootData, rootTranslator, webPageJsonLd } from '../utils/seo.ts';
import { markdownExcerpt } from '../markdown/tree.server.ts';
import { PageHeader, recordLang } from '../components/Content.tsx';
import { useRoot, useT } from '../components/root-data.ts';
import { sitePath } from '../i18n/locales.ts';

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  const lenses = await readLenses(context, locale);
  return {
    lenses: lenses.map((l) => ({
      id: l.id,
      title: l.title,
      url: l.url,
      translated: l.translated,
      evidence: l.evidence.entries,
      pitch: markdownExcerpt(l.pitch, 180),
      gap: l.honestGaps[0] ?? '',
    })),
  };
}

export const meta: MetaFunction<typeof loader> = ({ matches, location }) => {
  const root = rootData(matches);
  if (!root) return [];
  const t = rootTranslator(root);
  const title = `${t('lensesTitle')} · ${root.site.subject.name}`;
  return pageMeta(matches, location, {
    title,
    description: t('lensesPageIntro'),
    jsonLd: webPageJsonLd(root, location.pathname, title, t('lensesPageIntro'), 'CollectionPage'),
  });
};

export const markdown: MarkdownTwin<typeof loader> = (args) => {
  const { data, t } = args;
  const { twin, footer } = twinParts(args);
  return [
    `# ${t('lensesTitle')}`,
    '',
    t('lensesPageIntro'),
    '',
    ...data.lenses.map((l) => `- [${mdText(l.title)}](${twin(`/lenses/${l.id}`)}): ${t('evidenceCount', { n: l.evidence })}`),
    ...footer('/lenses'),
  ].join('\n');
};

export default function Lenses() {
  const { lenses } = useLoaderData<typeof loader>();
  const { siteUrl, locale } = useRoot();
  const t = useT();
  return (
    <div className="page">
      <PageHeader title={t('lensesTitle')} lead={t('lensesPageIntro')} />
      <ul className="lens-cards">
        {lenses.map((l) => (
          <li key={l.id}>
            <article className="lens-card" lang={recordLang(l.translated, locale)}>
              <h2>
                <a href={sitePath(l.url, siteUrl)}>{l.title}</a>
              </h2>
              <p className="lens-count">{t('evidenceCount', { n: l.evidence })}</p>
              <p>{l.pitch}</p>
              <p className="gap-line">
                <strong>{t('honestGaps')}:</strong> {l.gap}
              </p>
            </article>
          </li>
        ))}
      </ul>
    </div>
  );
}
