// One reference document, rendered from its Markdown.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { pageLocale, readDocument } from '../utils/data.server.ts';
import { twinParts, type MarkdownTwin } from '../utils/discovery.server.ts';
import { pageMeta, rootData, webPageJsonLd } from '../utils/seo.ts';
import { markdownDescription, sectionTree } from '../markdown/tree.server.ts';
import { DocumentArticle } from '../components/pages/DocumentArticle.tsx';
import { formatDay } from '../i18n/messages.ts';

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  const document = await readDocument(context, locale, params.name!);
  return { document, tree: sectionTree(document.markdown), description: markdownDescription(document.markdown, 200) };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const root = rootData(matches);
  if (!root || !data) return [];
  const title = `${data.document.title} · ${root.site.subject.name}`;
  return pageMeta(matches, location, {
    title,
    description: data.description,
    type: 'article',
    jsonLd: webPageJsonLd(root, location.pathname, data.document.title, data.description, 'Article'),
  });
};

export const markdown: MarkdownTwin<typeof loader> = (args) => {
  const { data, t, locale } = args;
  const d = data.document;
  const { fallback, footer } = twinParts(args);
  return [
    `# ${d.title}`,
    '',
    ...fallback(d.translated),
    t('updated', { date: formatDay(locale, d.updatedAt) }),
    '',
    d.markdown.trim(),
    ...footer(`/documents/${d.name}`),
  ].join('\n');
};

export default function DocumentPage() {
  return <DocumentArticle {...useLoaderData<typeof loader>()} />;
}
