// REST routes named in messages. The service words a hint once, by route ("List the slugs with GET
// /api/v1/entries."); a surface that is not REST names the same operation its own way (the CLI its command,
// MCP its tool). Routes are matched against the operation list, so the hints of a new operation are reworded
// without a line elsewhere.
import type { AnyOperation } from './define.ts';
import { operations } from './index.ts';

const ROUTE = /\b(GET|POST|PUT|DELETE) (\/api\/[^\s?`'",;)]*[^\s?`'",;).])(\?[^\s`'",;)]*[^\s`'",;).])?/g;

export interface RouteCall {
  op: AnyOperation;
  /** The input the route carries (path parameters and query), by the operation's field names. */
  input: Record<string, string>;
}

/** The operation `METHOD /api/…?query` calls, with its input; undefined when no operation has that route. */
export function operationAtRoute(method: string, pathAndQuery: string): RouteCall | undefined {
  const [path, query = ''] = pathAndQuery.split('?', 2) as [string, string?];
  for (const op of operations) {
    if (op.rest.method !== method) continue;
    const names: string[] = [];
    const pattern = op.rest.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const match = new RegExp(`^${pattern}$`).exec(path);
    if (!match) continue;
    const input: Record<string, string> = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1]!)]));
    const fieldOf = Object.fromEntries(Object.entries(op.rest.rename ?? {}).map(([field, rest]) => [rest, field]));
    for (const [key, value] of new URLSearchParams(query)) input[fieldOf[key] ?? key] = value;
    return { op, input };
  }
  return undefined;
}

/** `text` with each route of an operation put as `word` puts it; a route `word` leaves undefined, or no operation's, stays. */
export function rewordRoutes(text: string, word: (call: RouteCall) => string | undefined): string {
  return text.replace(ROUTE, (whole, method: string, path: string, query?: string) => {
    const call = operationAtRoute(method, path + (query ?? ''));
    return (call && word(call)) ?? whole;
  });
}
