import type { LoaderFunctionArgs } from '@remix-run/node';
import { pageLocale } from '../utils/data.server.ts';
import { jsonResume } from '../utils/discovery.server.ts';

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const locale = pageLocale(params, request);
  return new Response(JSON.stringify(await jsonResume(context, locale), null, 2), {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' },
  });
}
