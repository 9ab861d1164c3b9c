// The header (site name, navigation, search, language) and the footer (the fictional notice and the
// machine-readable versions of the page) around every page.
import { NavLink, useLocation } from '@remix-run/react';
import { fill } from '../i18n/format.ts';
import { useHref, useRoot } from './root-data.ts';
import { LanguageSwitcher } from './LanguageSwitcher.tsx';
import { Icon } from './Icons.tsx';
import { markdownTwinPath } from '../utils/seo.ts';

export function SiteHeader() {
  const { strings, site, preview } = useRoot();
  const href = useHref();
  const nav: Array<[string, string]> = [
    ['/entries', strings.navEntries],
    ['/lenses', strings.navLenses],
    ['/documents', strings.navDocuments],
    ['/search', strings.navSearch],
  ];
  return (
    <>
      <a className="skip-link" href="#main">
        {strings.skipToContent}
      </a>
      {preview ? <p className="preview-banner">{strings.preview}</p> : null}
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
          <nav aria-label={strings.navLabel} className="site-nav">
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

export function SiteFooter() {
  const { strings, site, locale } = useRoot();
  const location = useLocation();
  const prefix = locale === 'en' ? '' : `/${locale}`;
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        {site.fictional ? <p className="fictional-note">{fill(strings.fictional, { name: site.subject.name })}</p> : null}
        <nav aria-label={strings.footerMachine}>
          <h2 className="footer-heading">{strings.footerMachine}</h2>
          <ul className="machine-links">
            <li>
              <a href={markdownTwinPath(location.pathname, location.search)} type="text/markdown">
                <Icon name="doc" size={16} />
                {strings.footerMarkdown}
              </a>
            </li>
            <li>
              <a href="/llms.txt">llms.txt</a>
            </li>
            <li>
              <a href={`${prefix}/resume.json`}>{strings.footerResume}</a>
            </li>
            <li>
              <a href={`${prefix}/feed.xml`}>{strings.footerFeed}</a>
            </li>
            <li>
              <a href="/openapi.json">{strings.footerApi}</a>
            </li>
            <li>
              <a href="/mcp">{strings.footerMcp}</a>
            </li>
          </ul>
        </nav>
        <p className="powered">{strings.poweredBy}</p>
      </div>
    </footer>
  );
}
