// The home page: who the subject is (the brief), highlights, the role lenses and the latest entries.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { pageLocale, readBrief, readEntries, readLenses } from '../utils/data.server.ts';
import { pageMeta, personJsonLd, profilePageJsonLd, rootData } from '../utils/seo.ts';
import { Markdown } from '../markdown/Markdown.tsx';
import { excerpt, markdownToText } from '../markdown/parse.ts';
import { EntryList, FallbackNote, recordLang } from '../components/Content.tsx';
import { useHref, useRoot } from '../components/root-data.ts';
import { fill, plural } from '../i18n/format.ts';
import { sitePath } from '../i18n/locales.ts';
import { Icon } from '../components/Icons.tsx';

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  const [brief, list, lenses] = await Promise.all([readBrief(context, locale), readEntries(context, locale), readLenses(context, locale)]);
  const current = list.entries.find((e) => e.kind === 'experience' && e.period.end === null);
  return {
    brief,
    current: current ? { title: current.title, organisation: current.organisation, url: current.url } : undefined,
    featured: list.entries.filter((e) => e.featured),
    latest: list.entries.filter((e) => !e.featured).slice(0, 4),
    total: list.total,
    alumniOf: [...new Set(list.entries.filter((e) => e.kind === 'education').map((e) => e.organisation))],
    lenses: lenses.map((l) => ({ id: l.id, title: l.title, url: l.url, evidence: l.evidence.entries, pitch: excerpt(markdownToText(l.pitch), 120), translated: l.translated })),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const root = rootData(matches);
  if (!data || !root) return [];
  const person = personJsonLd(root, { jobTitle: data.current?.title, worksFor: data.current?.organisation, alumniOf: data.alumniOf });
  return pageMeta(matches, location, {
    title: `${root.site.subject.name} · ${root.strings.homeEyebrow}`,
    description: root.locale === 'en' ? root.site.description : excerpt(markdownToText(data.brief.markdown.replace(/^>.*$/m, '')), 200),
    type: 'profile',
    jsonLd: profilePageJsonLd(root, location.pathname, person),
  });
};

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const { strings, site, siteUrl, locale } = useRoot();
  const href = useHref();
  const firstName = site.subject.name.split(/\s+/)[0]!;
  return (
    <div className="page home">
      <div className="hero-grid">
        <section className="hero" aria-labelledby="hero-name">
          <p className="eyebrow">{strings.homeEyebrow}</p>
          <h1 id="hero-name">{site.subject.name}</h1>
          {data.current ? (
            <p className="hero-role">
              <a href={sitePath(data.current.url, siteUrl)}>{data.current.title}</a>
              <span aria-hidden="true"> · </span>
              <span>{data.current.organisation}</span>
            </p>
          ) : null}
          {site.subject.location ? <p className="hero-location">{site.subject.location}</p> : null}
          <p className="actions">
            <a className="button" href={href('/search')} data-open-chat="">
              <Icon name="chat" />
              {fill(strings.askCta, { name: firstName })}
            </a>
            <a className="button ghost" href={href('/entries')}>
              {strings.browseEntries}
              <Icon name="arrow" />
            </a>
          </p>
        </section>
        <aside className="glance card-surface" aria-labelledby="glance-heading">
          <h2 id="glance-heading" className="glance-heading">
            {strings.contact}
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
          {strings.highlights}
        </h2>
        <EntryList className="card-grid four" entries={data.featured} />
      </section>

      <div className="home-grid section">
        <section className="brief card-surface" aria-labelledby="brief-heading" lang={recordLang(data.brief.translated, locale)}>
          <h2 id="brief-heading" className="section-title">
            {strings.briefHeading}
          </h2>
          <FallbackNote translated={data.brief.translated} />
          <Markdown source={data.brief.markdown} headingOffset={1} className="brief-body" />
        </section>

        <section aria-labelledby="lenses-heading" className="lens-rail">
          <h2 id="lenses-heading" className="section-title">
            {strings.lensesHeading}
          </h2>
          <p className="section-intro">{strings.lensesIntro}</p>
          <ul className="lens-grid">
            {data.lenses.map((l) => (
              <li key={l.id}>
                <a className="lens-tile" href={sitePath(l.url, siteUrl)}>
                  <span className="lens-title" lang={recordLang(l.translated, locale)}>
                    {l.title}
                  </span>
                  <span className="lens-count">{plural(locale, strings.evidenceCount, l.evidence)}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      </div>

      <section aria-labelledby="latest-heading" className="section">
        <h2 id="latest-heading" className="section-title">
          {strings.latest}
        </h2>
        <EntryList className="card-grid four" entries={data.latest} />
        <p className="more">
          <a className="button ghost" href={href('/entries')}>
            {strings.allEntries} ({data.total})
            <Icon name="arrow" />
          </a>
        </p>
      </section>
    </div>
  );
}
