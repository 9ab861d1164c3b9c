import type { LoaderFunctionArgs } from '@remix-run/node';
import { sitemapXml } from '../utils/discovery.server.ts';

export async function loader({ context }: LoaderFunctionArgs) {
  return new Response(await sitemapXml(context), { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=300' } });
}
