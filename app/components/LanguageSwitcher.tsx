// The language menu: links to the same page (path and query) in each locale. A <details> disclosure,
// so it opens without JavaScript; with it, a click outside or Escape closes it, and the link carries the
// reader's place to the translated page (reading-place.ts). Without it, a plain link to the page's top.
import { useEffect, useRef, type MouseEvent } from 'react';
import { useLocation } from '@remix-run/react';
import { localeFacts, locales, switchLocale } from '../i18n/locales.ts';
import { useRoot, useT } from './root-data.ts';
import { Icon } from './Icons.tsx';
import { restoreReadingPlace, withReadingPlace } from './reading-place.ts';

/** Just before the browser follows a language link (any button, a new tab too): the place goes in its fragment. */
function carryReadingPlace(event: MouseEvent<HTMLAnchorElement>) {
  const link = event.currentTarget;
  link.href = withReadingPlace(link.href, window);
}

export function LanguageSwitcher() {
  const { locale } = useRoot();
  const t = useT();
  const location = useLocation();
  const ref = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    const close = (event: Event) => {
      const details = ref.current;
      if (!details?.open) return;
      if (event instanceof KeyboardEvent) {
        if (event.key !== 'Escape') return;
        details.open = false;
        details.querySelector('summary')?.focus();
      } else if (!details.contains(event.target as Node)) details.open = false;
    };
    document.addEventListener('click', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('click', close);
      document.removeEventListener('keydown', close);
    };
  }, []);

  // Arrived from another language at "#section=n": on to that section.
  useEffect(() => restoreReadingPlace(window), []);

  // Close after a client-side navigation (not on the first render: a click before hydration must stay open).
  const shownFor = useRef(location.key);
  useEffect(() => {
    if (shownFor.current !== location.key && ref.current) ref.current.open = false;
    shownFor.current = location.key;
  }, [location.key]);

  return (
    <details className="lang-menu" ref={ref}>
      <summary aria-label={t('languageCurrent', { language: localeFacts[locale].nativeName })}>
        <Icon name="globe" />
        <span className="lang-current">{localeFacts[locale].nativeName}</span>
      </summary>
      <ul>
        {locales.map((l) => (
          <li key={l}>
            <a
              href={switchLocale(location.pathname, location.search, l)}
              hrefLang={localeFacts[l].htmlLang}
              lang={localeFacts[l].htmlLang}
              aria-current={l === locale ? 'true' : undefined}
              data-locale={l}
              onClick={carryReadingPlace}
              onAuxClick={carryReadingPlace}
            >
              {localeFacts[l].nativeName}
              {l === locale ? <Icon name="check" size={16} /> : null}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
