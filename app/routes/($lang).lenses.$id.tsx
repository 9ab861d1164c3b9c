// One role lens: the case for it and its honest gaps side by side, with equal weight, then the evidence.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { LENS_EVIDENCE_SHOWN, pageLocale, readEntries, readLens } from '../utils/data.server.ts';
import { twinParts, type MarkdownTwin } from '../utils/discovery.server.ts';
import { pageMeta, rootData, rootTranslator, webPageJsonLd } from '../utils/seo.ts';
import { markdownExcerpt, markdownTree } from '../markdown/tree.server.ts';
import { LensArticle } from '../components/pages/LensArticle.tsx';

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  const lens = await readLens(context, locale, params.id!);
  const evidence = await readEntries(context, locale, { lens: lens.id });
  // The newest evidence; the rest is one link away (the entries list filtered by this lens, paged).
  return {
    lens,
    pitch: markdownTree(lens.pitch),
    description: markdownExcerpt(lens.pitch, 200),
    entries: evidence.entries.slice(0, LENS_EVIDENCE_SHOWN),
    total: evidence.total,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const root = rootData(matches);
  if (!root || !data) return [];
  const title = `${data.lens.title} · ${rootTranslator(root)('lensEyebrow')} · ${root.site.subject.name}`;
  return pageMeta(matches, location, {
    title,
    description: data.description,
    type: 'article',
    jsonLd: webPageJsonLd(root, location.pathname, data.lens.title, data.description),
  });
};

export const markdown: MarkdownTwin<typeof loader> = (args) => {
  const { data, t } = args;
  const { lens } = data;
  const { fallback, entryLine, footer, twin } = twinParts(args);
  return [
    `# ${lens.title}`,
    '',
    ...fallback(lens.translated),
    `## ${t('theCase')}`,
    '',
    lens.pitch.trim(),
    '',
    `## ${t('honestGaps')}`,
    '',
    ...lens.honestGaps.map((g) => `- ${g}`),
    '',
    `## ${t('evidence')}`,
    '',
    ...data.entries.map(entryLine),
    ...(data.total > data.entries.length ? ['', `- [${t('evidenceAll', { n: data.total })}](${twin('/entries')}?lens=${lens.id})`] : []),
    ...footer(`/lenses/${lens.id}`),
  ].join('\n');
};

export default function LensPage() {
  return <LensArticle {...useLoaderData<typeof loader>()} />;
}
