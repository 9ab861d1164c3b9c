import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteError, useRouteLoaderData } from '@remix-run/react';
import styles from './styles.css';
import { htmlLang, parseLocalePath } from './i18n/locales.ts';
import { stringsFor } from './i18n/dictionary.ts';
import { siteIdentity } from './utils/operations.server.ts';
import type { RootData } from './utils/seo.ts';
import { SiteFooter, SiteHeader } from './components/SiteChrome.tsx';
import { ChatWidget } from './chat/ChatWidget.tsx';
import { useHref, useRoot } from './components/root-data.ts';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: styles },
  { rel: 'icon', href: '/favicon.ico' },
];

export async function loader({ request, context }: LoaderFunctionArgs): Promise<RootData> {
  const { locale } = parseLocalePath(new URL(request.url).pathname);
  const { site, siteUrl, branch } = siteIdentity(context);
  return { locale, strings: stringsFor(locale), site, siteUrl, preview: branch === 'dev' };
}

// Pages declare their own <head>; this one only serves the error pages.
export const meta: MetaFunction<typeof loader> = ({ data, error }) => {
  if (!error) return [];
  const strings = data?.strings;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title = status === 404 ? strings?.notFoundTitle ?? 'Page not found' : strings?.errorTitle ?? 'Something went wrong';
  return [{ title: data ? `${title} · ${data.site.name}` : title }, { name: 'robots', content: 'noindex' }];
};

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData('root') as RootData | undefined;
  return (
    <html lang={htmlLang[data?.locale ?? 'en']} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="theme-color" content="#f7f4ee" media="(prefers-color-scheme: light)" />
        <meta name="theme-color" content="#14161a" media="(prefers-color-scheme: dark)" />
        <Meta />
        <Links />
      </head>
      <body>
        {data ? <SiteHeader /> : null}
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        {data ? <SiteFooter /> : null}
        {data ? <ChatWidget /> : null}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData('root') as RootData | undefined;
  if (!data) {
    return (
      <div className="page narrow">
        <h1>Something went wrong</h1>
        <p>
          <a href="/">Home</a>
        </p>
      </div>
    );
  }
  return <ErrorPage status={isRouteErrorResponse(error) ? error.status : 500} />;
}

function ErrorPage({ status }: { status: number }) {
  const { strings } = useRoot();
  const href = useHref();
  const notFound = status === 404;
  return (
    <div className="page narrow error-page">
      <p className="eyebrow">{status}</p>
      <h1>{notFound ? strings.notFoundTitle : strings.errorTitle}</h1>
      <p className="lead">{notFound ? strings.notFoundText : strings.errorText}</p>
      <p className="actions">
        <a className="button" href={href('/')}>
          {strings.goHome}
        </a>
        <a className="button ghost" href={href('/search')}>
          {strings.navSearch}
        </a>
      </p>
    </div>
  );
}
