// One entry in long form, at the `url` the API gives for it.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { pageLocale, readEntry, readLenses } from '../utils/data.server.ts';
import { siteIdentity } from '../utils/operations.server.ts';
import { pageMeta, rootData, webPageJsonLd } from '../utils/seo.ts';
import { Markdown } from '../markdown/Markdown.tsx';
import { FallbackNote, recordLang } from '../components/Content.tsx';
import { useHref, useRoot } from '../components/root-data.ts';
import { fill } from '../i18n/format.ts';
import { htmlLang } from '../i18n/locales.ts';
import { Icon } from '../components/Icons.tsx';

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  const [entry, lenses] = await Promise.all([readEntry(context, locale, params.slug!), readLenses(context, locale)]);
  const { skillName } = siteIdentity(context);
  return {
    entry,
    skills: entry.skills.map((slug) => ({ slug, name: skillName(locale, slug) })),
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
    jsonLd: webPageJsonLd(root, location.pathname, `${entry.title} — ${entry.organisation}`, entry.summary, 'ItemPage'),
  });
};

export default function EntryPage() {
  const { entry, skills, lenses } = useLoaderData<typeof loader>();
  const { strings, site, locale } = useRoot();
  const href = useHref();
  const firstName = site.subject.name.split(/\s+/)[0]!;
  // When the record fell back to English, its text is marked lang="en" and the labels keep the page's language.
  const content = recordLang(entry.translated, locale);
  const ui = content ? htmlLang[locale] : undefined;
  const section = (title: string, items: string[]) =>
    items.length ? (
      <section className="entry-section">
        <h2 lang={ui}>{title}</h2>
        <ul className="bullets">
          {items.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
      </section>
    ) : null;
  return (
    <article className="page entry-page">
      <nav aria-label={strings.breadcrumb} className="breadcrumb">
        <ol>
          <li>
            <a href={href('/entries')}>{strings.entriesTitle}</a>
          </li>
          <li>
            <a href={`${href('/entries')}?kind=${entry.kind}`}>{strings.kind[entry.kind]}</a>
          </li>
        </ol>
      </nav>
      <FallbackNote translated={entry.translated} />
      <div className="entry-layout">
        <div className="entry-main">
          <header className="page-header entry-header" lang={content}>
            <p className="eyebrow" lang={ui}>
              <span className="kind-badge">{strings.kind[entry.kind]}</span> <span className="period">{entry.period.label}</span>
            </p>
            <h1>{entry.title}</h1>
            <p className="entry-org large">{entry.organisation}</p>
            <p className="lead">{entry.summary}</p>
          </header>
          <div className="entry-body" lang={content}>
            <p className="key-result">
              <span className="label" lang={ui}>
                {strings.keyResult}
              </span>
              <span>{entry.keyResult}</span>
            </p>
            <section className="entry-section">
              <h2 lang={ui}>{strings.overview}</h2>
              <Markdown source={entry.overview} headingOffset={2} />
            </section>
            {section(fill(strings.contributions, { name: firstName }), entry.contributions)}
            {section(strings.achievements, entry.achievements)}
            {section(strings.keyResults, entry.keyResults)}
            <section className="entry-section why">
              <h2 lang={ui}>{strings.whyItMatters}</h2>
              <Markdown source={entry.whyItMatters} headingOffset={2} />
            </section>
          </div>
        </div>
        <aside className="entry-aside">
          <section>
            <h2>{strings.skills}</h2>
            <ul className="chips">
              {skills.map((s) => (
                <li key={s.slug}>
                  <a className="chip" href={`${href('/search')}?q=${encodeURIComponent(s.name)}`}>
                    {s.name}
                  </a>
                </li>
              ))}
            </ul>
          </section>
          <section>
            <h2>{strings.tagsLabel}</h2>
            <ul className="chips">
              {entry.tags.map((t) => (
                <li key={t}>
                  <a className="chip" href={`${href('/entries')}?tag=${t}`}>
                    {strings.tag[t]}
                  </a>
                </li>
              ))}
            </ul>
          </section>
          <section>
            <h2>{strings.lensesLabel}</h2>
            <ul className="plain-list">
              {lenses.map((l) => (
                <li key={l.id}>
                  <a href={href(`/lenses/${l.id}`)}>{l.title}</a>
                </li>
              ))}
            </ul>
          </section>
          {entry.proofLinks.length ? (
            <section>
              <h2>{strings.proofLinks}</h2>
              <ul className="plain-list">
                {entry.proofLinks.map((p) => (
                  <li key={p.url}>
                    <a href={p.url} lang={content}>
                      {p.label}
                      <Icon name="external" size={14} />
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </aside>
      </div>
    </article>
  );
}
