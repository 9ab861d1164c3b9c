// REST routes derived from the operation list: path templates compiled to matchers.
import type { AnyOperation } from '../contract/define.ts';

export interface CompiledRoute {
  op: AnyOperation;
  method: string;
  pattern: RegExp;
  params: string[];
}

export function compileRoutes(ops: readonly AnyOperation[]): CompiledRoute[] {
  return ops.map((op) => {
    const params: string[] = [];
    const source = op.rest.path
      .split('/')
      .map((segment) => {
        const param = /^\{(\w+)\}$/.exec(segment);
        if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        params.push(param[1]!);
        return '([^/]+)';
      })
      .join('/');
    return { op, method: op.rest.method, pattern: new RegExp(`^${source}/?$`), params };
  });
}

export interface RouteMatch {
  route: CompiledRoute;
  /** Raw (still percent-encoded) path parameters. */
  rawParams: Record<string, string>;
}

/** Finds the route for a path; `allowed` lists the methods of routes matching the path with another method. */
export function matchRoute(routes: CompiledRoute[], method: string, pathname: string): { match?: RouteMatch; allowed: string[] } {
  const allowed: string[] = [];
  for (const route of routes) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    if (route.method !== method && !(method === 'HEAD' && route.method === 'GET')) {
      allowed.push(route.method);
      continue;
    }
    const rawParams = Object.fromEntries(route.params.map((name, i) => [name, m[i + 1]!]));
    return { match: { route, rawParams }, allowed };
  }
  return { allowed };
}

/** Fills a path template, percent-encoding each parameter (used by the HTTP client). */
export function fillPath(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(values[name])));
}
