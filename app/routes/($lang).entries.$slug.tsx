// One entry in long form, at the `url` the API gives for it.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { pageLocale, readEntry, readLenses } from '../utils/data.server.ts';
import { siteIdentity } from '../utils/operations.server.ts';
import { mdText, twinParts, type MarkdownTwin } from '../utils/discovery.server.ts';
import { pageMeta, rootData, webPageJsonLd } from '../utils/seo.ts';
import { markdownTree } from '../markdown/tree.server.ts';
import { EntryArticle } from '../components/pages/EntryArticle.tsx';

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  const [entry, lenses, { skillName }] = await Promise.all([
    readEntry(context, locale, params.slug!),
    readLenses(context, locale),
    siteIdentity(context, locale, request),
  ]);
  return {
    entry,
    trees: { overview: markdownTree(entry.overview), whyItMatters: markdownTree(entry.whyItMatters) },
    skills: entry.skills.map((slug) => ({ slug, name: skillName(slug) })),
    lenses: entry.lenses.map((id) => ({ id, title: lenses.find((l) => l.id === id)?.title ?? id })),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const root = rootData(matches);
  if (!root || !data) return [];
  const { entry } = data;
  const title = `${entry.title} — ${entry.organisation} · ${root.site.subject.name}`;
  return pageMeta(matches, location, {
    title,
    description: entry.summary,
    type: 'article',
    jsonLd: webPageJsonLd(root, location.pathname, `${entry.title} — ${entry.organisation}`, entry.summary, 'ItemPage', entry.cover),
  });
};

export const markdown: MarkdownTwin<typeof loader> = (args) => {
  const { data, t, site } = args;
  const { entry: e, skills, lenses } = data;
  const { twin, fallback, footer } = twinParts(args);
  const list = (title: string, items: string[]) => (items.length ? [`## ${title}`, '', ...items.map((i) => `- ${i}`), ''] : []);
  return [
    `# ${e.title} — ${e.organisation}`,
    '',
    ...fallback(e.translated),
    `${t(`kind.${e.kind}`)} · ${e.period.label}`,
    '',
    e.summary,
    '',
    `**${t('keyResult')}:** ${e.keyResult}`,
    '',
    `## ${t('overview')}`,
    '',
    e.overview.trim(),
    '',
    ...list(t('contributions', { name: site.subject.name.split(/\s+/)[0]! }), e.contributions),
    ...list(t('achievements'), e.achievements),
    ...list(t('keyResults'), e.keyResults),
    `## ${t('whyItMatters')}`,
    '',
    e.whyItMatters.trim(),
    '',
    `## ${t('skills')}`,
    '',
    skills.map((s) => s.name).join(', '),
    '',
    `## ${t('tagsLabel')}`,
    '',
    e.tags.map((tag) => t(`tag.${tag}`)).join(', '),
    '',
    `## ${t('lensesLabel')}`,
    '',
    ...lenses.map((l) => `- [${mdText(l.title)}](${twin(`/lenses/${l.id}`)})`),
    '',
    ...(e.proofLinks.length ? [`## ${t('proofLinks')}`, '', ...e.proofLinks.map((p) => `- [${mdText(p.label)}](${p.url})`), ''] : []),
    ...footer(`/entries/${e.slug}`),
  ].join('\n');
};

export default function EntryPage() {
  return <EntryArticle {...useLoaderData<typeof loader>()} />;
}
