import type { LoaderFunctionArgs } from '@remix-run/node';
import { pageLocale } from '../utils/data.server.ts';
import { atomFeed } from '../utils/discovery.server.ts';

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  return new Response(await atomFeed(context, locale), {
    headers: { 'Content-Type': 'application/atom+xml; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
  });
}
