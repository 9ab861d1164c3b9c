// Previous / next links of a paged list, keeping the list's other parameters (its filters) in the URL.
import { useLocation } from '@remix-run/react';
import { useT } from './root-data.ts';

/** The list's address at `page` (page 1 has no parameter: one address per page). */
export function pageHref(pathname: string, search: string, page: number): string {
  const params = new URLSearchParams(search);
  params.delete('page');
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

export function Pagination({ page, pages }: { page: number; pages: number }) {
  const t = useT();
  const { pathname, search } = useLocation();
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label={t('pagesLabel')}>
      {page > 1 ? (
        <a className="button ghost" rel="prev" href={pageHref(pathname, search, page - 1)}>
          ← {t('pagePrevious')}
        </a>
      ) : (
        <span />
      )}
      <p aria-current="page">{t('pageStatus', { page, pages })}</p>
      {page < pages ? (
        <a className="button ghost" rel="next" href={pageHref(pathname, search, page + 1)}>
          {t('pageNext')} →
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}
