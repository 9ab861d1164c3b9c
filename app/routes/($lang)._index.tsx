// The home page: who the subject is (the brief), highlights, the role lenses and the latest entries.
import { Picture } from '../components/Picture.tsx';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { pageLocale, readBrief, readEntries, readLenses } from '../utils/data.server.ts';
import { siteIdentity } from '../utils/operations.server.ts';
import { mdText, twinParts, type MarkdownTwin } from '../utils/discovery.server.ts';
import { pageMeta, personJsonLd, profilePageJsonLd, rootData, rootTranslator } from '../utils/seo.ts';
import { linkSitePaths, markdownDescription, markdownTree } from '../markdown/tree.server.ts';
import { EntryList, recordLang } from '../components/Content.tsx';
import { BriefSection } from '../components/pages/BriefSection.tsx';
import { useHref, useRoot, useT } from '../components/root-data.ts';
import { localizePath, sitePath } from '../i18n/locales.ts';
import { Icon } from '../components/Icons.tsx';

/** Featured entries the home page shows at most (two rows); "All entries" lists the rest. */
const FEATURED_SHOWN = 8;

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  const [brief, list, lenses] = await Promise.all([readBrief(context, locale), readEntries(context, locale), readLenses(context, locale)]);
  const current = list.entries.find((e) => e.kind === 'experience' && e.period.end === null);
  return {
    brief: { markdown: brief.markdown, translated: brief.translated, tree: linkSitePaths(markdownTree(brief.markdown), locale) },
    // The site's description is written in English; other languages describe the page with the brief's opening, without its notice.
    description: locale === 'en' ? (await siteIdentity(context)).site.description : markdownDescription(brief.markdown.replace(/^>.*$/m, ''), 200),
    current: current ? { title: current.title, organisation: current.organisation, url: current.url } : undefined,
    featured: list.entries.filter((e) => e.featured).slice(0, FEATURED_SHOWN),
    latest: list.entries.filter((e) => !e.featured).slice(0, 4),
    total: list.total,
    alumniOf: [...new Set(list.entries.filter((e) => e.kind === 'education').map((e) => e.organisation))],
    lenses: lenses.map((l) => ({ id: l.id, title: l.title, url: l.url, evidence: l.evidence.entries, translated: l.translated })),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const root = rootData(matches);
  if (!data || !root) return [];
  const person = personJsonLd(root, { jobTitle: data.current?.title, worksFor: data.current?.organisation, alumniOf: data.alumniOf });
  return pageMeta(matches, location, {
    title: `${root.site.subject.name} · ${rootTranslator(root)('homeEyebrow')}`,
    description: data.description,
    type: 'profile',
    jsonLd: profilePageJsonLd(root, location.pathname, person),
  });
};

export const markdown: MarkdownTwin<typeof loader> = (args) => {
  const { data, t, site, siteUrl, locale } = args;
  const { twin, fallback, entryLine, footer } = twinParts(args);
  return [
    `# ${site.subject.name}`,
    '',
    ...fallback(data.brief.translated),
    data.brief.markdown.trim(),
    '',
    `## ${t('highlights')}`,
    '',
    ...data.featured.map(entryLine),
    '',
    `## ${t('lensesHeading')}`,
    '',
    ...data.lenses.map((l) => `- [${mdText(l.title)}](${twin(`/lenses/${l.id}`)})`),
    '',
    `## ${t('entriesTitle')}`,
    '',
    `- [${t('allEntries')} (${data.total})](${twin('/entries')})`,
    `- [${t('documentsTitle')}](${twin('/documents')})`,
    `- [JSON Resume](${siteUrl}${localizePath(locale, '/resume.json')})`,
    ...footer('/'),
  ].join('\n');
};

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const { site, siteUrl, locale } = useRoot();
  const t = useT();
  const href = useHref();
  const firstName = site.subject.name.split(/\s+/)[0]!;
  return (
    <div className="page home">
      <div className="hero-grid">
        <section className="hero" aria-labelledby="hero-name">
          {site.subject.portrait ? <Picture className="hero-portrait" image={site.subject.portrait} sizes="160px" eager /> : null}
          <p className="eyebrow">{t('homeEyebrow')}</p>
          <h1 id="hero-name">{site.subject.name}</h1>
          {data.current ? (
            <p className="hero-role">
              <a href={sitePath(data.current.url, siteUrl)}>{data.current.title}</a>
              <span aria-hidden="true"> · </span>
              <span>{data.current.organisation}</span>
            </p>
          ) : null}
          {site.subject.location ? <p className="hero-location">{site.subject.place ?? site.subject.location}</p> : null}
          <p className="actions">
            <a className="button" href={href('/search')} data-open-chat="">
              <Icon name="chat" />
              {t('askCta', { name: firstName })}
            </a>
            <a className="button ghost" href={href('/match')}>
              <Icon name="compare" />
              {t('matchTitle')}
            </a>
            <a className="button ghost" href={href('/entries')}>
              {t('browseEntries')}
              <Icon name="arrow" />
            </a>
          </p>
        </section>
        <aside className="glance card-surface" aria-labelledby="glance-heading">
          <h2 id="glance-heading" className="glance-heading">
            {t('contact')}
          </h2>
          {site.subject.email ? (
            <p>
              <a href={`mailto:${site.subject.email}`}>{site.subject.email}</a>
            </p>
          ) : null}
          {site.links.length ? (
            <ul className="link-list">
              {site.links.map((l) => (
                <li key={l.url}>
                  <a href={l.url} rel="me">
                    {l.label}
                    <Icon name="external" size={14} />
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </aside>
      </div>

      <section aria-labelledby="highlights-heading" className="section first">
        <h2 id="highlights-heading" className="section-title">
          {t('highlights')}
        </h2>
        <EntryList layout="grid" entries={data.featured} />
      </section>

      <div className="home-grid section">
        <BriefSection brief={data.brief} />

        <section aria-labelledby="lenses-heading" className="lens-rail">
          <h2 id="lenses-heading" className="section-title">
            {t('lensesHeading')}
          </h2>
          <p className="section-intro">{t('lensesIntro')}</p>
          <ul className="lens-grid">
            {data.lenses.map((l) => (
              <li key={l.id}>
                <a className="lens-tile" href={sitePath(l.url, siteUrl)}>
                  <span className="lens-title" lang={recordLang(l.translated, locale)}>
                    {l.title}
                  </span>
                  <span className="lens-count">{t('evidenceCount', { n: l.evidence })}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      </div>

      <section aria-labelledby="latest-heading" className="section">
        <h2 id="latest-heading" className="section-title">
          {t('latest')}
        </h2>
        <EntryList layout="grid" entries={data.latest} />
        <p className="more">
          <a className="button ghost" href={href('/entries')}>
            {t('allEntries')} ({data.total})
            <Icon name="arrow" />
          </a>
        </p>
      </section>
    </div>
  );
}
