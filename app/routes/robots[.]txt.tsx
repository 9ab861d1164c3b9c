import type { LoaderFunctionArgs } from '@remix-run/node';
import { robotsTxt } from '../utils/discovery.server.ts';

export async function loader({ context }: LoaderFunctionArgs) {
  return new Response(await robotsTxt(context), { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=300' } });
}
