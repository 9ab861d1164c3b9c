// The header (site name, navigation, search, language) and the footer (the fictional notice and the
// machine-readable versions of the page) around every page.
import { NavLink, useLocation } from '@remix-run/react';
import { useHref, useRoot, useT } from './root-data.ts';
import { LanguageSwitcher } from './LanguageSwitcher.tsx';
import { Icon } from './Icons.tsx';
import { markdownTwinPath } from '../utils/seo.ts';

export function SiteHeader() {
  const { site, preview } = useRoot();
  const t = useT();
  const href = useHref();
  // (on a phone the items take a second row rather than one giving way: each is a page a visitor looks for there)
  const nav: Array<[string, string]> = [
    ['/entries', t('navEntries')],
    ['/lenses', t('navLenses')],
    ['/documents', t('navDocuments')],
    ['/search', t('navSearch')],
    ['/match', t('navMatch')],
  ];
  return (
    <>
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      {preview ? <p className="preview-banner">{t('preview')}</p> : null}
      <header className="site-header">
        <div className="header-inner">
          <a className="brand" href={href('/')}>
            <span className="brand-mark" aria-hidden="true">
              {site.subject.name
                .split(/\s+/)
                .map((w) => w[0])
                .slice(0, 2)
                .join('')}
            </span>
            <span className="brand-name">{site.subject.name}</span>
          </a>
          <nav aria-label={t('navLabel')} className="site-nav">
            <ul>
              {nav.map(([path, label]) => (
                <li key={path}>
                  <NavLink to={href(path)} prefetch="intent">
                    {label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <LanguageSwitcher />
        </div>
      </header>
    </>
  );
}

/** `markdownTwin` is false on an error page: an address with no page has no Markdown version either. */
export function SiteFooter({ markdownTwin }: { markdownTwin: boolean }) {
  const { site, locale } = useRoot();
  const t = useT();
  const location = useLocation();
  const prefix = locale === 'en' ? '' : `/${locale}`;
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        {site.fictional ? <p className="fictional-note">{t('fictional', { name: site.subject.name })}</p> : null}
        <nav aria-label={t('footerMachine')}>
          <h2 className="footer-heading">{t('footerMachine')}</h2>
          <ul className="machine-links">
            {markdownTwin ? (
              <li>
                <a href={markdownTwinPath(location.pathname, location.search)} type="text/markdown">
                  <Icon name="doc" size={16} />
                  {t('footerMarkdown')}
                </a>
              </li>
            ) : null}
            <li>
              <a href="/llms.txt">llms.txt</a>
            </li>
            <li>
              <a href={`${prefix}/resume.json`}>{t('footerResume')}</a>
            </li>
            <li>
              <a href={`${prefix}/feed.xml`}>{t('footerFeed')}</a>
            </li>
            <li>
              <a href="/openapi.json">{t('footerApi')}</a>
            </li>
            <li>
              <a href="/mcp">{t('footerMcp')}</a>
            </li>
          </ul>
        </nav>
        <p className="powered">{t('poweredBy')}</p>
      </div>
    </footer>
  );
}
