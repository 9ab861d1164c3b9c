// `/og/<page type>.png`: the og:image card of each page type, drawn once per build and page type and kept
// in memory until the content changes (an ETag answers repeat requests with 304).
import type { LoaderFunctionArgs } from '@remix-run/node';
import { ogImage } from '../utils/og-image.server.ts';
import { ogPageTypes, type OgPageType } from '../utils/og-pages.ts';
import { siteIdentity } from '../utils/operations.server.ts';

const made = new Map<string, Buffer>();

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const type = /^([a-z]+)\.png$/.exec(params.type ?? '')?.[1];
  if (!type || !(ogPageTypes as readonly string[]).includes(type)) throw new Response('Not found', { status: 404 });
  const { site, siteUrl, content } = await siteIdentity(context);
  const build = `${content.commit}|${siteUrl}`;
  const key = `${build}|${type}`;
  let image = made.get(key);
  if (!image) {
    for (const old of made.keys()) if (!old.startsWith(`${build}|`)) made.delete(old);
    image = ogImage(type as OgPageType, { name: site.subject.name, headline: site.subject.headline, site: new URL(siteUrl).host });
    made.set(key, image);
  }
  const etag = `"og-${content.commit.slice(0, 12)}-${type}"`;
  const headers = { ETag: etag, 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' };
  if (request.headers.get('If-None-Match') === etag) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(image), { headers: { ...headers, 'Content-Type': 'image/png', 'Content-Length': String(image.length) } });
}
