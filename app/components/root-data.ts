// Hooks for what every page knows from the root loader: locale, interface messages, the site. The root
// route provides them through a context, so the page components also render outside the router (the
// console's preview renders them with the data of the locale it previews).
import { createContext, useContext } from 'react';
import { localizePath } from '../i18n/locales.ts';
import type { Translate } from '../i18n/messages.ts';
import { rootTranslator, type RootData } from '../utils/seo.ts';

const RootContext = createContext<RootData | undefined>(undefined);

/** Gives the components below it the root data: the root route's, or a preview's. */
export const RootDataProvider = RootContext.Provider;

export function useRoot(): RootData {
  const data = useContext(RootContext);
  if (!data) throw new Error('The root loader data is missing');
  return data;
}

/** `t(key, values)` in the page's locale. */
export function useT(): Translate {
  return rootTranslator(useRoot());
}

/** `href("/entries")` → "/fr/entries" on a French page. */
export function useHref() {
  const { locale } = useRoot();
  return (path: string) => localizePath(locale, path);
}
