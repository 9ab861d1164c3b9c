// What the og:image card of a page says, in the page's locale, read through the same operations as the page
// itself (an entry, lens or document that is not there is the site's 404): the kind of page, its title, a line
// under the title, the subject's name and headline, the site's host.
import type { AppLoadContext } from '@remix-run/node';
import type { Locale } from '../i18n/locales.ts';
import { translatorFor } from '../i18n/messages.server.ts';
import { notFound, readDocument, readEntry, readLens } from './data.server.ts';
import type { OgCard } from './og-image.server.ts';
import type { OgPage } from './og-pages.ts';
import type { siteIdentity } from './operations.server.ts';

type Identity = Pick<Awaited<ReturnType<typeof siteIdentity>>, 'site' | 'siteUrl'>;

/** The texts of a page's card (without the portrait, which the route adds). */
export async function ogCardText(context: AppLoadContext, locale: Locale, page: OgPage, { site, siteUrl }: Identity): Promise<Omit<OgCard, 'portrait'>> {
  const t = translatorFor(locale);
  const base = { locale, type: page.type, name: site.subject.name, headline: site.subject.headline, host: new URL(siteUrl).host };
  const list = (title: string, subtitle: string) => ({ ...base, eyebrow: t('homeEyebrow'), title, subtitle });
  switch (page.type) {
    case 'home':
      return { ...base, eyebrow: t('homeEyebrow'), title: site.subject.name, subtitle: site.subject.headline };
    case 'entries':
      return list(t('entriesTitle'), t('entriesIntro'));
    case 'lenses':
      return list(t('lensesTitle'), t('lensesPageIntro'));
    case 'documents':
      return list(t('documentsTitle'), t('documentsIntro'));
    case 'search':
      return list(t('searchTitle'), t('searchIntro'));
    case 'match':
      return list(t('matchTitle'), t('matchIntro'));
    case 'entry': {
      const entry = await readEntry(context, locale, slugOf(page));
      return { ...base, eyebrow: t(`kind.${entry.kind}`), title: entry.title, subtitle: `${entry.organisation} · ${entry.period.label}` };
    }
    case 'lens': {
      const lens = await readLens(context, locale, slugOf(page));
      return { ...base, eyebrow: t('lensEyebrow'), title: lens.title, subtitle: t('evidenceCount', { n: lens.evidence.entries }) };
    }
    case 'document': {
      const document = await readDocument(context, locale, slugOf(page));
      return { ...base, eyebrow: t('resultDocument'), title: document.title, subtitle: document.summary };
    }
  }
}

function slugOf(page: OgPage): string {
  if (!page.slug) throw notFound();
  return page.slug;
}
