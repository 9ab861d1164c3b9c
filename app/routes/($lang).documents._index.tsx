// The five reference documents.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { pageLocale, readDocuments } from '../utils/data.server.ts';
import { mdText, twinParts, type MarkdownTwin } from '../utils/discovery.server.ts';
import { pageMeta, rootData, rootTranslator, webPageJsonLd } from '../utils/seo.ts';
import { PageHeader, recordLang } from '../components/Content.tsx';
import { useHref, useRoot, useT } from '../components/root-data.ts';
import { formatDay } from '../i18n/messages.ts';
import { Icon } from '../components/Icons.tsx';

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  const documents = await readDocuments(context, locale);
  return { documents: documents.map(({ name, title, summary, updatedAt, translated }) => ({ name, title, summary, updatedAt, translated })) };
}

export const meta: MetaFunction<typeof loader> = ({ matches, location }) => {
  const root = rootData(matches);
  if (!root) return [];
  const t = rootTranslator(root);
  const title = `${t('documentsTitle')} · ${root.site.subject.name}`;
  return pageMeta(matches, location, {
    title,
    description: t('documentsIntro'),
    jsonLd: webPageJsonLd(root, location.pathname, title, t('documentsIntro'), 'CollectionPage'),
  });
};

export const markdown: MarkdownTwin<typeof loader> = (args) => {
  const { data, t } = args;
  const { twin, footer } = twinParts(args);
  return [
    `# ${t('documentsTitle')}`,
    '',
    t('documentsIntro'),
    '',
    ...data.documents.map((d) => `- [${mdText(d.title)}](${twin(`/documents/${d.name}`)}): ${d.summary}`),
    ...footer('/documents'),
  ].join('\n');
};

export default function Documents() {
  const { documents } = useLoaderData<typeof loader>();
  const { locale } = useRoot();
  const t = useT();
  const href = useHref();
  return (
    <div className="page">
      <PageHeader title={t('documentsTitle')} lead={t('documentsIntro')} />
      <ul className="doc-list">
        {documents.map((d) => (
          <li key={d.name}>
            <a className="doc-tile" href={href(`/documents/${d.name}`)}>
              <Icon name="doc" size={22} />
              <span className="doc-title" lang={recordLang(d.translated, locale)}>
                {d.title}
              </span>
              <span className="doc-blurb" lang={recordLang(d.translated, locale)}>
                {d.summary}
              </span>
              <span className="doc-date">{t('updated', { date: formatDay(locale, d.updatedAt) })}</span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
