// The five reference documents.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { pageLocale, readDocuments } from '../utils/data.server.ts';
import { pageMeta, rootData, webPageJsonLd } from '../utils/seo.ts';
import { PageHeader, recordLang } from '../components/Content.tsx';
import { useHref, useRoot } from '../components/root-data.ts';
import { fill, formatDay } from '../i18n/format.ts';
import { Icon } from '../components/Icons.tsx';

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  const documents = await readDocuments(context, locale);
  return { documents: documents.map(({ name, title, updatedAt, translated }) => ({ name, title, updatedAt, translated })) };
}

export const meta: MetaFunction<typeof loader> = ({ matches, location }) => {
  const root = rootData(matches);
  if (!root) return [];
  const title = `${root.strings.documentsTitle} · ${root.site.subject.name}`;
  return pageMeta(matches, location, { title, description: root.strings.documentsIntro, jsonLd: webPageJsonLd(root, location.pathname, title, root.strings.documentsIntro, 'CollectionPage') });
};

export default function Documents() {
  const { documents } = useLoaderData<typeof loader>();
  const { strings, locale } = useRoot();
  const href = useHref();
  return (
    <div className="page">
      <PageHeader title={strings.documentsTitle} lead={strings.documentsIntro} />
      <ul className="doc-list">
        {documents.map((d) => (
          <li key={d.name}>
            <a className="doc-tile" href={href(`/documents/${d.name}`)}>
              <Icon name="doc" size={22} />
              <span className="doc-title" lang={recordLang(d.translated, locale)}>
                {d.title}
              </span>
              <span className="doc-blurb">{strings.documentBlurb[d.name]}</span>
              <span className="doc-date">{fill(strings.updated, { date: formatDay(locale, d.updatedAt) })}</span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
