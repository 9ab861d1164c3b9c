// `/og/<locale>/<type>.png` and `/og/<locale>/<type>/<slug>.png`: the og:image card of each page, in the page's
// locale (app/utils/og-pages.ts names the addresses). Drawn on first request and kept in memory per content
// build, site address, locale and page (the most recently used 200 cards); an ETag answers repeats with 304. A
// card of an entry, lens or document that is not there is a 404, like its page.
import { createHash } from 'node:crypto';
import type { AppLoadContext, LoaderFunctionArgs } from '@remix-run/node';
import { LruMap } from '../../operations/content/lru-map.ts';
import { notFound } from '../utils/data.server.ts';
import { ogCardText } from '../utils/og-card.server.ts';
import { ogImage } from '../utils/og-image.server.ts';
import { parseOgImagePath } from '../utils/og-pages.ts';
import { siteIdentity } from '../utils/operations.server.ts';

/** Cards kept, least recently used first out. */
const OG_CACHE_SIZE = 200;
/** Cards made or being made: `get` answers a card made already, now the most recently used. */
const made = new LruMap<string, Promise<Buffer>>(OG_CACHE_SIZE);

type Identity = Awaited<ReturnType<typeof siteIdentity>>;

function remember(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
  const already = made.get(key);
  if (already) return already;
  const making = make();
  made.set(key, making);
  // A card that failed is not kept: the next request tries again.
  making.catch(() => made.delete(key));
  return making;
}

/**
 * The subject's portrait for the cards (its narrowest WebP variant: a card draws it small), or undefined for none.
 * The content commit is in each card's cache key and ETag, so a new portrait makes new cards.
 */
async function subjectPortrait(context: AppLoadContext, identity: Identity): Promise<Buffer | undefined> {
  const portrait = identity.site.subject.portrait;
  if (!portrait) return undefined;
  const narrowest = (portrait.sources.find((s) => s.type === 'image/webp')?.srcset ?? portrait.url).split(', ')[0]!.split(' ')[0]!;
  return context.vitae.image(new URL(narrowest).pathname.split('/').pop()!);
}

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const card = parseOgImagePath(params['*'] ?? '');
  if (!card) throw notFound();
  const { locale, page } = card;
  const identity = await siteIdentity(context, locale, request);
  const key = [identity.content.commit, identity.siteUrl, locale, page.type, page.slug ?? ''].join('\0');
  const etag = `"og-${identity.content.commit.slice(0, 12)}-${createHash('sha256').update(key).digest('base64url').slice(0, 16)}"`;
  const headers = { ETag: etag, 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' };
  const fresh = request.headers.get('If-None-Match') === etag;
  let image = made.get(key);
  if (!image) {
    // The texts are read before anything is cached: an unknown slug is a 404 and leaves no entry behind.
    const text = await ogCardText(context, locale, page, identity);
    if (fresh) return new Response(null, { status: 304, headers });
    const portrait = await subjectPortrait(context, identity);
    image = remember(key, () => ogImage({ ...text, portrait }));
  }
  if (fresh) return new Response(null, { status: 304, headers });
  const png = await image;
  return new Response(new Uint8Array(png), { headers: { ...headers, 'Content-Type': 'image/png', 'Content-Length': String(png.length) } });
}
