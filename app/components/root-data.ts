// Hooks for what every page knows from the root loader: locale, interface strings, the site.
import { useRouteLoaderData } from '@remix-run/react';
import { localizePath } from '../i18n/locales.ts';
import type { RootData } from '../utils/seo.ts';

export function useRoot(): RootData {
  const data = useRouteLoaderData('root') as RootData | undefined;
  if (!data) throw new Error('The root loader data is missing');
  return data;
}

export function useStrings() {
  return useRoot().strings;
}

/** `href("/entries")` → "/fr/entries" on a French page. */
export function useHref() {
  const { locale } = useRoot();
  return (path: string) => localizePath(locale, path);
}
