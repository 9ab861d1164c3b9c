import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useMatches, useRouteError, useRouteLoaderData } from '@remix-run/react';
import styles from './styles.css';
import { localeFacts, parseLocalePath } from './i18n/locales.ts';
import { messagesFor } from './i18n/messages.server.ts';
import { siteIdentity } from './utils/operations.server.ts';
import { readBrief } from './utils/data.server.ts';
import { rootTranslator, type RootData } from './utils/seo.ts';
import { SiteFooter, SiteHeader } from './components/SiteChrome.tsx';
import { RouteAnnouncer } from './components/RouteAnnouncer.tsx';
import { ChatWidget } from './chat/ChatWidget.tsx';
import { RootDataProvider, useHref, useT } from './components/root-data.ts';
import { useNonce } from './utils/nonce.ts';
import { zodWithoutEval } from './utils/zod-jitless.ts';

zodWithoutEval(); // before the route modules, evaluated after this one, build any zod schema

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: styles },
  { rel: 'icon', href: '/favicon.ico' },
];

export async function loader({ request, context }: LoaderFunctionArgs): Promise<RootData> {
  const { pathname } = new URL(request.url);
  const { locale } = parseLocalePath(pathname);
  const [{ site, siteUrl, branch }, { questions = [] }] = await Promise.all([siteIdentity(context, locale, request), readBrief(context, locale)]);
  const { chat, transcription } = context.vitae.features();
  const root: RootData = { locale, messages: messagesFor(locale), questions, site, siteUrl, preview: branch === 'dev', features: { chat, transcription } };
  // A request refused before any page could answer, or an address that cannot be decoded ("/entries/%FF"): the web
  // adapter sets `httpStatus` (operations/adapters/web.server.ts, by the edge's one check `decodedPath`) and hands
  // such an address on with its "%" escaped. The site's own error page, in the page's language; the root data travels
  // with the error, as the boundary has no loader data then.
  const status = context.httpStatus;
  if (status) throw data(root, { status });
  return root;
}

const isRootData = (value: unknown): value is RootData => typeof value === 'object' && value !== null && 'messages' in value && 'site' in value;

/** The root data of the page, or of the error page that replaced it (carried by the error, see the loader). */
function useRootData(): RootData | undefined {
  const loaded = useRouteLoaderData<RootData>('root');
  const error = useRouteError();
  return loaded ?? (isRouteErrorResponse(error) && isRootData(error.data) ? error.data : undefined);
}

// Pages declare their own <head>; this one only serves the error pages.
export const meta: MetaFunction<typeof loader> = ({ data: loaded, error }) => {
  if (!error) return [];
  const data = loaded ?? (isRouteErrorResponse(error) && isRootData(error.data) ? error.data : undefined);
  const t = data ? rootTranslator(data) : undefined;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title = status < 500 ? (t?.('notFoundTitle') ?? 'Page not found') : (t?.('errorTitle') ?? 'Something went wrong');
  return [{ title: data ? `${title} · ${data.site.name}` : title }, { name: 'robots', content: 'noindex' }];
};

/** Console routes (`handle = { console: true }`) bring their own frame: no site header, footer, chat or route announcer. */
export const useIsConsole = () => useMatches().some((m) => (m.handle as { console?: boolean } | undefined)?.console);

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRootData();
  const nonce = useNonce();
  const facts = localeFacts[data?.locale ?? 'en'];
  const inConsole = useIsConsole();
  // The root boundary is showing an error page (404 and all): there is no page here, so no Markdown twin of it.
  // (null, not undefined, when there is no error: the error context's default)
  const errorPage = useRouteError() != null;
  return (
    <html lang={facts.htmlLang} dir={facts.dir}>
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
        {inConsole ? (
          children
        ) : (
          <RootDataProvider value={data}>
            {data ? <SiteHeader /> : null}
            <main id="main" tabIndex={-1}>
              {children}
            </main>
            {data ? <SiteFooter markdownTwin={!errorPage} /> : null}
            {data ? <ChatWidget /> : null}
            <RouteAnnouncer />
          </RootDataProvider>
        )}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRootData();
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
  const t = useT();
  const href = useHref();
  // A 4xx is about the address (unknown, malformed, refused): the "no page here" words fit every one of them, but
  // 429 (too many at once from this visitor), which is "try again in a moment" like a 5xx.
  const notFound = status < 500 && status !== 429;
  return (
    <div className="page narrow error-page">
      <p className="eyebrow">{status}</p>
      <h1>{notFound ? t('notFoundTitle') : t('errorTitle')}</h1>
      <p className="lead">{notFound ? t('notFoundText') : t('errorText')}</p>
      <p className="actions">
        <a className="button" href={href('/')}>
          {t('goHome')}
        </a>
        <a className="button ghost" href={href('/search')}>
          {t('navSearch')}
        </a>
      </p>
    </div>
  );
}
