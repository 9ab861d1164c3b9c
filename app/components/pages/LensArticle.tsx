// A role lens's page body: shared by the lens route and the console's preview of unsaved text.
import type { MarkdownTree } from '../../markdown/Markdown.tsx';
import { Markdown } from '../../markdown/Markdown.tsx';
import { kinds } from '../../i18n/vocabulary.ts';
import { htmlLang } from '../../i18n/locales.ts';
import { EntryList, FallbackNote, recordLang } from '../Content.tsx';
import { Icon } from '../Icons.tsx';
import { useHref, useRoot, useT } from '../root-data.ts';
import type { EntryShortData, LensData } from '../../utils/types.ts';

export interface LensArticleProps {
  lens: LensData;
  pitch: MarkdownTree;
  /** The newest entries that are evidence for the lens. */
  entries: EntryShortData[];
  /** Evidence entries in all (more than `entries` holds: a link to the full list is shown). */
  total?: number;
}

const evidenceKey = { experience: 'experience', project: 'projects', community: 'community', education: 'education' } as const;

export function LensArticle({ lens, pitch, entries, total = entries.length }: LensArticleProps) {
  const { locale } = useRoot();
  const t = useT();
  const href = useHref();
  const content = recordLang(lens.translated, locale);
  const ui = content ? htmlLang[locale] : undefined;
  return (
    <article className="page lens-page">
      <nav aria-label={t('breadcrumb')} className="breadcrumb">
        <ol>
          <li>
            <a href={href('/lenses')}>{t('lensesTitle')}</a>
          </li>
        </ol>
      </nav>
      <FallbackNote translated={lens.translated} />
      <header className="page-header">
        <p className="eyebrow">{t('lensEyebrow')}</p>
        <h1 lang={content}>{lens.title}</h1>
        <ul className="evidence-stats" aria-label={t('evidence')}>
          <li>
            <strong>{t('evidenceCount', { n: lens.evidence.entries })}</strong>
          </li>
          {kinds
            .filter((k) => lens.evidence[evidenceKey[k]] > 0)
            .map((k) => (
              <li key={k}>
                {t(`kindPlural.${k}`)}: {lens.evidence[evidenceKey[k]]}
              </li>
            ))}
        </ul>
      </header>
      <div className="case-gaps" lang={content}>
        <section className="case" aria-labelledby="case-heading">
          <h2 id="case-heading" lang={ui}>
            {t('theCase')}
          </h2>
          <Markdown tree={pitch} headingOffset={2} />
        </section>
        <section className="gaps" aria-labelledby="gaps-heading" data-testid="honest-gaps">
          <h2 id="gaps-heading" lang={ui}>
            {t('honestGaps')}
          </h2>
          <p className="section-intro" lang={ui}>
            {t('honestGapsIntro')}
          </p>
          <ul className="bullets">
            {lens.honestGaps.map((gap, i) => (
              <li key={i}>{gap}</li>
            ))}
          </ul>
        </section>
      </div>
      <p className="match-callout">
        <span>{t('lensMatchPrompt')}</span>{' '}
        <a href={href('/match')}>
          <Icon name="compare" size={16} />
          {t('lensMatchCta')}
        </a>
      </p>
      <section className="section" aria-labelledby="evidence-heading">
        <h2 id="evidence-heading" className="section-title">
          {t('evidence')}
        </h2>
        <p className="section-intro">{t('evidenceIntro')}</p>
        <EntryList layout="list" entries={entries} />
        {total > entries.length ? (
          <p className="see-all">
            <a className="button ghost" href={`${href('/entries')}?lens=${lens.id}`}>
              {t('evidenceAll', { n: total })} →
            </a>
          </p>
        ) : null}
      </section>
    </article>
  );
}
