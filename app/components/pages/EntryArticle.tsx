// An entry's page body: shared by the entry route and the console's preview of unsaved text.
import type { MarkdownTree } from '../../markdown/Markdown.tsx';
import { Markdown } from '../../markdown/Markdown.tsx';
import { FallbackNote, recordLang } from '../Content.tsx';
import { Icon } from '../Icons.tsx';
import { useHref, useRoot, useT } from '../root-data.ts';
import { htmlLang } from '../../i18n/locales.ts';
import { Picture } from '../Picture.tsx';
import type { EntryData } from '../../utils/types.ts';

export interface EntryArticleProps {
  entry: EntryData;
  trees: { overview: MarkdownTree; whyItMatters: MarkdownTree };
  skills: Array<{ slug: string; name: string }>;
  lenses: Array<{ id: string; title: string }>;
}

export function EntryArticle({ entry, trees, skills, lenses }: EntryArticleProps) {
  const { site, locale } = useRoot();
  const t = useT();
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
      <nav aria-label={t('breadcrumb')} className="breadcrumb">
        <ol>
          <li>
            <a href={href('/entries')}>{t('entriesTitle')}</a>
          </li>
          <li>
            <a href={`${href('/entries')}?kind=${entry.kind}`}>{t(`kind.${entry.kind}`)}</a>
          </li>
        </ol>
      </nav>
      <FallbackNote translated={entry.translated} />
      <div className="entry-layout">
        <div className="entry-main">
          <header className="page-header entry-header" lang={content}>
            <p className="eyebrow" lang={ui}>
              <span className="kind-badge">{t(`kind.${entry.kind}`)}</span> <span className="period">{entry.period.label}</span>
            </p>
            <h1>{entry.title}</h1>
            <p className="entry-org large">{entry.organisation}</p>
            <p className="lead">{entry.summary}</p>
          </header>
          {entry.cover ? <Picture className="entry-cover" image={entry.cover} sizes="(min-width: 1100px) 720px, 100vw" eager /> : null}
          <div className="entry-body" lang={content}>
            <p className="key-result">
              <span className="label" lang={ui}>
                {t('keyResult')}
              </span>
              <span>{entry.keyResult}</span>
            </p>
            <section className="entry-section">
              <h2 lang={ui}>{t('overview')}</h2>
              <Markdown tree={trees.overview} headingOffset={2} />
            </section>
            {section(t('contributions', { name: firstName }), entry.contributions)}
            {section(t('achievements'), entry.achievements)}
            {section(t('keyResults'), entry.keyResults)}
            <section className="entry-section why">
              <h2 lang={ui}>{t('whyItMatters')}</h2>
              <Markdown tree={trees.whyItMatters} headingOffset={2} />
            </section>
            {entry.gallery.length ? (
              <section className="entry-section entry-gallery">
                <h2 lang={ui}>{t('gallery')}</h2>
                <ul>
                  {entry.gallery.map((image) => (
                    <li key={image.path}>
                      <Picture image={image} sizes="(min-width: 1100px) 340px, (min-width: 700px) 45vw, 100vw" />
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
          </div>
        </div>
        <aside className="entry-aside">
          <section>
            <h2>{t('skills')}</h2>
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
            <h2>{t('tagsLabel')}</h2>
            <ul className="chips">
              {entry.tags.map((tag) => (
                <li key={tag}>
                  <a className="chip" href={`${href('/entries')}?tag=${tag}`}>
                    {t(`tag.${tag}`)}
                  </a>
                </li>
              ))}
            </ul>
          </section>
          <section>
            <h2>{t('lensesLabel')}</h2>
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
              <h2>{t('proofLinks')}</h2>
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
