// Small building blocks of the content pages.
import type { ReactNode } from 'react';
import { htmlLang, sitePath } from '../i18n/locales.ts';
import type { EntryShortData } from '../utils/types.ts';
import { useRoot, useT } from './root-data.ts';
import { Icon } from './Icons.tsx';
import { Picture } from './Picture.tsx';

/** Says plainly that a record is shown in English because its translation is missing or stale. */
export function FallbackNote({ translated }: { translated: boolean }) {
  const { locale } = useRoot();
  const t = useT();
  if (translated || locale === 'en') return null;
  return (
    <p className="fallback-note" data-testid="fallback-note">
      <Icon name="globe" size={16} />
      <span>{t('fallbackNote')}</span>
    </p>
  );
}

/** The `lang` of a record's text: English when it fell back, otherwise the page's own (inherited). */
export function recordLang(translated: boolean, locale: string): string | undefined {
  return !translated && locale !== 'en' ? 'en' : undefined;
}

/**
 * How wide a card's cover is shown, by the list it is in: a column of a grid (the home page), or a thumbnail beside the
 * text in a list of whole-width cards (the entries and lens pages; full width below 700px, where the card stacks).
 */
const COVER_SIZES = {
  grid: '(min-width: 1100px) 280px, (min-width: 700px) 45vw, 100vw',
  list: '(min-width: 700px) 224px, 100vw',
};
type CardLayout = keyof typeof COVER_SIZES;

export function EntryCard({
  entry,
  headingLevel = 3,
  showKeyResult = true,
  layout = 'grid',
}: {
  entry: EntryShortData;
  headingLevel?: 2 | 3;
  showKeyResult?: boolean;
  layout?: CardLayout;
}) {
  const { siteUrl, locale } = useRoot();
  const t = useT();
  const Heading = `h${headingLevel}` as 'h3';
  const content = recordLang(entry.translated, locale);
  return (
    <article className={`entry-card kind-${entry.kind}${entry.cover ? ' has-cover' : ''}`} lang={content}>
      {entry.cover ? <Picture className="entry-card-cover" image={entry.cover} sizes={COVER_SIZES[layout]} /> : null}
      {/* (the kind and the period are the page's words, in its language, though the record fell back to English) */}
      <p className="entry-meta" lang={content ? htmlLang[locale] : undefined}>
        <span className="kind-badge">{t(`kind.${entry.kind}`)}</span>
        <span className="period">{entry.period.label}</span>
      </p>
      <Heading className="entry-title">
        <a href={sitePath(entry.url, siteUrl)}>{entry.title}</a>
      </Heading>
      <p className="entry-org">{entry.organisation}</p>
      <p className="entry-summary">{entry.summary}</p>
      {showKeyResult ? (
        <p className="entry-result">
          <span className="sr-only">{t('keyResult')}: </span>
          {entry.keyResult}
        </p>
      ) : null}
      {!entry.translated && locale !== 'en' ? (
        <p className="fallback-inline" lang={htmlLang[locale]}>
          <Icon name="globe" size={14} />
          <span>{t('fallbackNote')}</span>
        </p>
      ) : null}
    </article>
  );
}

/** A list of entry cards: a grid of four across (the home page) or a list with the cover beside the text. */
export function EntryList({ entries, layout, headingLevel }: { entries: EntryShortData[]; layout: 'grid' | 'list'; headingLevel?: 2 | 3 }) {
  return (
    <ul className={layout === 'list' ? 'entry-list' : 'card-grid four'}>
      {entries.map((e) => (
        <li key={e.slug}>
          <EntryCard entry={e} headingLevel={headingLevel} layout={layout} />
        </li>
      ))}
    </ul>
  );
}

export function PageHeader({ eyebrow, title, lead, children }: { eyebrow?: ReactNode; title: ReactNode; lead?: ReactNode; children?: ReactNode }) {
  return (
    <header className="page-header">
      {eyebrow ? <p className="eyebrow">{eyebrow}</p> : null}
      <h1>{title}</h1>
      {lead ? <p className="lead">{lead}</p> : null}
      {children}
    </header>
  );
}
