// The route template of a site path, for /metrics: the Remix route that answers it ("/:lang?/entries/:slug",
// "/admin/edit"), found by Remix's own matcher over the build's route manifest, so that no address a visitor
// makes up becomes a series of its own. Static files are their own path (a fixed set read from disk), the
// hashed ones under /build/ one label.
import type { ServerBuild } from '@remix-run/node';
import { decodedPath } from './edge.server.ts';
import { markdownTwinPath } from './page-cache.server.ts';

/** The route objects Remix's matcher takes. */
type RouteNodes = Parameters<(typeof import('@remix-run/react'))['matchRoutes']>[0];

/** Paths remembered with their template (the pages people ask for, over and over); then forgotten all at once. */
const REMEMBERED = 2000;
/** Longer paths are matched each time rather than remembered, so the memory held stays small. */
const LONGEST_REMEMBERED = 256;

/**
 * The template of a path, by the build's routes. `isFile` says whether a path is one of the web app's static
 * files. Remix's matcher ranks the routes on every call (about 70 µs here); the pages asked for again are
 * remembered, so the hot path is a lookup.
 */
export async function pageRoutes(routes: ServerBuild['routes'], isFile: (pathname: string) => boolean): Promise<(pathname: string) => string> {
  const { matchRoutes } = await import('@remix-run/react'); // the web app loads it anyway; an API-only start does not
  const children = new Map<string | undefined, Array<ServerBuild['routes'][string]>>();
  for (const route of Object.values(routes)) {
    const siblings = children.get(route.parentId) ?? [];
    siblings.push(route);
    children.set(route.parentId, siblings);
  }
  const tree = (parentId: string | undefined): RouteNodes =>
    (children.get(parentId) ?? []).map((route) =>
      route.index
        ? { id: route.id, path: route.path, index: true }
        : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: tree(route.id) },
    );
  const nodes = tree(undefined);

  function templateOf(pathname: string): string {
    if (isFile(pathname)) return pathname.startsWith('/build/') ? '/build/*' : pathname;
    if (decodedPath(pathname) === undefined) return 'unmatched'; // the matcher would warn on the console for each such path
    const matches = matchRoutes(nodes, markdownTwinPath(pathname) ?? pathname);
    if (!matches) return 'unmatched';
    return `/${matches
      .map((match) => match.route.path)
      .filter(Boolean)
      .join('/')}`;
  }

  const known = new Map<string, string>();
  return (pathname) => {
    let template = known.get(pathname);
    if (template !== undefined) return template;
    template = templateOf(pathname);
    if (pathname.length <= LONGEST_REMEMBERED) {
      if (known.size >= REMEMBERED) known.clear();
      known.set(pathname, template);
    }
    return template;
  };
}
