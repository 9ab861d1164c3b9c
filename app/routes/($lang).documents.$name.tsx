// One reference document, rendered from its Markdown.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { pageLocale, readDocument } from '../utils/data.server.ts';
import { pageMeta, rootData, webPageJsonLd } from '../utils/seo.ts';
import { Markdown } from '../markdown/Markdown.tsx';
import { excerpt, markdownToText } from '../markdown/parse.ts';
import { FallbackNote, recordLang } from '../components/Content.tsx';
import { useHref, useRoot } from '../components/root-data.ts';
import { fill, formatDay } from '../i18n/format.ts';

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  return { document: await readDocument(context, locale, params.name!) };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const root = rootData(matches);
  if (!root || !data) return [];
  const title = `${data.document.title} · ${root.site.subject.name}`;
  const description = excerpt(markdownToText(data.document.markdown), 200);
  return pageMeta(matches, location, { title, description, type: 'article', jsonLd: webPageJsonLd(root, location.pathname, data.document.title, description, 'Article') });
};

export default function DocumentPage() {
  const { document } = useLoaderData<typeof loader>();
  const { strings, locale } = useRoot();
  const href = useHref();
  return (
    <article className="page document-page">
      <nav aria-label={strings.breadcrumb} className="breadcrumb">
        <ol>
          <li>
            <a href={href('/documents')}>{strings.documentsTitle}</a>
          </li>
        </ol>
      </nav>
      <FallbackNote translated={document.translated} />
      <header className="page-header">
        <h1 lang={recordLang(document.translated, locale)}>{document.title}</h1>
        <p className="muted">{fill(strings.updated, { date: formatDay(locale, document.updatedAt) })}</p>
      </header>
      <div lang={recordLang(document.translated, locale)}>
        <Markdown source={document.markdown} headingOffset={0} className="document-body" />
      </div>
    </article>
  );
}
