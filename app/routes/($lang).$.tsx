// Any other path, in any locale: the 404 page (rendered by the root error boundary, in the page's language).
import type { LoaderFunctionArgs } from '@remix-run/node';
import { notFound } from '../utils/data.server.ts';

export function loader(_: LoaderFunctionArgs): never {
  throw notFound();
}

export default function NotFound() {
  return null;
}
