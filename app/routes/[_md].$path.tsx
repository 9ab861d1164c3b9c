// Markdown twins: server.ts hands every GET of "<page>.md" here as "/_md/<the page path, encoded>". The page
// is found in the app's own route table (the server build's manifest, passed as `context.routes`) with the
// router's matchRoutes; its loader runs for the page URL, and its `markdown` export writes the twin from
// that data. A page without a twin, like a path without a page, is a 404.
import type { LoaderFunctionArgs, ServerBuild } from '@remix-run/node';
import { matchRoutes, redirect } from '@remix-run/react';
import { parseLocalePath, localizePath } from '../i18n/locales.ts';
import { translatorFor } from '../i18n/messages.server.ts';
import { notFound } from '../utils/data.server.ts';
import type { TwinArgs } from '../utils/discovery.server.ts';
import { siteIdentity } from '../utils/operations.server.ts';
import { markdownTwinPath } from '../utils/seo.ts';

type Manifest = ServerBuild['routes'];
type RouteNode = { id: string; path?: string; caseSensitive?: boolean } & ({ index: true; children?: undefined } | { index?: false; children?: RouteNode[] });

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  let path = params.path ?? '';
  if (path.startsWith('%2F') || path.startsWith('%2f')) path = decodeURIComponent(path);
  if (!path.startsWith('/') || !path.endsWith('.md')) throw notFound();
  const pagePath = pageOfTwin(path.slice(0, -'.md'.length));

  const manifest = context.routes;
  const leaf = matchRoutes(routeTree(manifest), pagePath)?.at(-1);
  const module = leaf ? manifest[leaf.route.id]?.module : undefined;
  const twin = module && (module as { markdown?: unknown }).markdown;
  if (!leaf || !module?.loader || typeof twin !== 'function') throw notFound();

  const pageUrl = new URL(pagePath + url.search, url.origin);
  let data: unknown;
  try {
    data = await module.loader({ request: new Request(pageUrl, { headers: request.headers, signal: request.signal }), params: leaf.params, context });
  } catch (error) {
    // A page that redirects (e.g. "/en/…" to "/…") sends its twin to the twin of the target.
    const location = error instanceof Response && error.status >= 300 && error.status < 400 ? error.headers.get('Location') : null;
    if (location) {
      const target = new URL(location, pageUrl);
      throw redirect(markdownTwinPath(target.pathname, target.search), error instanceof Response ? error.status : 302);
    }
    throw error;
  }
  if (data instanceof Response) {
    if (!data.ok) throw data;
    data = await data.json();
  }

  const { locale } = parseLocalePath(pagePath);
  const { site, siteUrl } = await siteIdentity(context, locale);
  const args: TwinArgs<unknown> = { data, locale, t: translatorFor(locale), site, siteUrl, url: pageUrl };
  return new Response((twin as (args: TwinArgs<unknown>) => string)(args), {
    headers: { 'Content-Type': 'text/markdown; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' },
  });
}

/** "/index" is the home page's twin name ("/index.md", "/fr/index.md"); every other twin adds ".md" to its page. */
function pageOfTwin(path: string): string {
  const { locale, path: rest } = parseLocalePath(path);
  return rest === '/index' ? localizePath(locale, '/') : path;
}

const trees = new WeakMap<Manifest, RouteNode[]>();

/** The manifest's flat list of routes as the nested tree matchRoutes expects. */
function routeTree(manifest: Manifest): RouteNode[] {
  let tree = trees.get(manifest);
  if (tree) return tree;
  const children = new Map<string | undefined, RouteNode[]>();
  for (const route of Object.values(manifest)) {
    if (!route) continue;
    const list = children.get(route.parentId) ?? [];
    list.push(
      route.index
        ? { id: route.id, path: route.path, index: true, caseSensitive: route.caseSensitive }
        : { id: route.id, path: route.path, caseSensitive: route.caseSensitive },
    );
    children.set(route.parentId, list);
  }
  const attach = (nodes: RouteNode[]): RouteNode[] =>
    nodes.map((node) => {
      const below = children.get(node.id);
      return below && !node.index ? { ...node, children: attach(below) } : node;
    });
  tree = attach(children.get(undefined) ?? []);
  trees.set(manifest, tree);
  return tree;
}
