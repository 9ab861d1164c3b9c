// Markdown twins: server.ts hands every GET of "<page>.md" here as "/_md/<the page path, encoded>".
import type { LoaderFunctionArgs } from '@remix-run/node';
import { notFound } from '../utils/data.server.ts';
import { markdownTwin } from '../utils/discovery.server.ts';

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  let path = params.path ?? '';
  if (path.startsWith('%2F') || path.startsWith('%2f')) path = decodeURIComponent(path);
  if (!path.startsWith('/')) throw notFound();
  const markdown = await markdownTwin(context, path, url.searchParams);
  if (markdown === null) throw notFound();
  return new Response(markdown, {
    headers: { 'Content-Type': 'text/markdown; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' },
  });
}
