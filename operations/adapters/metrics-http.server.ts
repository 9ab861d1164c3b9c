// `/metrics` on the service port (Prometheus text, behind a bearer token) and the request histogram it reports,
// observed by the edge for every request it routes.
//
// Only the main port answers it: the numbers are the process's, so one target per process is enough, and the
// dev preview is the address editors pass around. Without a valid token it is a path like any the site does not
// have (the web app's 404 page): its existence is not advertised to whoever scans for it — no 401 asking for a
// token, no 405 naming a method, and it is left out of /openapi.json. A token is checked under the failure budget
// every credential shares (the admin token opens it too, so it must not be a door with guesses of its own); a
// check refused for a spent budget is that same 404 — a 429 here, and nowhere else on an unknown path, would
// say that something is listening — and is counted in vitae_throttled_total{kind="metrics"}.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Branch } from '../contract/shared.ts';
import { bearerToken, tokenMatches } from '../server/auth.server.ts';
import type { CredentialThrottle } from '../server/credential-throttle.server.ts';
import { httpRequestDuration, metricsContentType, metricsText, startProcessMetrics } from '../server/metrics.server.ts';
import { sendBody, type EdgeObserver, type Endpoint, type WebHandler } from './edge.server.ts';

export interface MetricsEndpointDeps {
  /** Bearer tokens that may read it: METRICS_TOKEN when set, and the admin token. */
  tokens: readonly string[];
  /** Whether another token is a publisher's (their tokens open it too; an editor's does not). */
  publisher?: (token: string) => Promise<boolean>;
  /** What answers a path the service does not have: the web app (its 404 page). */
  unknownPath: WebHandler;
  /** The failure budgets of every credential, per address and per credential. */
  throttle: Pick<CredentialThrottle, 'check'>;
}

export function metricsEndpoint({ tokens, unknownPath, throttle, publisher }: MetricsEndpointDeps): Endpoint {
  startProcessMetrics();
  // Every token is compared (in constant time): how long a refusal takes does not say which one came near.
  const matches = async (given: string) => tokens.map((token) => tokenMatches(given, token)).includes(true) || ((await publisher?.(given)) ?? false);
  const allowed = async (authorization: string | undefined, ip: string) => {
    const given = bearerToken(authorization);
    return given !== undefined && (await throttle.check('metrics', ip, given, matches)).outcome === 'accepted';
  };
  const hidden = (req: IncomingMessage, res: ServerResponse, branch: Branch) => {
    // The edge has set the service's own security headers; the web app's answer carries its own, as for any page.
    for (const name of res.getHeaderNames()) if (name !== 'x-request-id') res.removeHeader(name);
    unknownPath(req, res, branch);
  };
  return {
    // Every method is claimed, so that none is answered 405 with an Allow header naming GET.
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    path: '/metrics',
    async handle({ req, res, branch, method, ip }) {
      if (branch !== 'main' || (method !== 'GET' && method !== 'HEAD') || !(await allowed(req.headers.authorization, ip))) return hidden(req, res, branch);
      sendBody(req, res, 200, await metricsText(), { 'Content-Type': metricsContentType, 'Cache-Control': 'no-store' });
    },
  };
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

type Observe = (seconds: number) => void;

/**
 * The edge's observer that times every request into `vitae_http_request_duration_seconds`, labelled with its
 * route template: an endpoint's path (`/api/v1/entries/{slug}`), a page's Remix route from `pageRoute`,
 * `unmatched` for a service path no route claims. `aborted` is the status of a request whose client left before
 * an answer began.
 */
export function requestMetrics(pageRoute: (pathname: string) => string): EdgeObserver {
  // The histogram's child per route, method and status, made on first use: an observation builds no labels.
  const children = new Map<string, Map<string, Map<number, Observe>>>();
  function childOf(route: string, method: string, status: number): Observe {
    let byMethod = children.get(route);
    if (!byMethod) children.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let observe = byStatus.get(status);
    if (!observe) {
      const child = httpRequestDuration.labels(route, method, status ? String(status) : 'aborted');
      byStatus.set(status, (observe = (seconds) => child.observe(seconds)));
    }
    return observe;
  }

  return (req, res, _branch, route) => {
    const started = performance.now();
    const url = req.url ?? '/'; // as it came: the web app may rewrite req.url on the way
    res.once('close', () => {
      let template = route ?? 'unmatched';
      if (route === 'page') {
        const q = url.indexOf('?');
        template = pageRoute(q === -1 ? url : url.slice(0, q));
      }
      const method = METHODS.has(req.method!) ? req.method! : 'other';
      childOf(template, method, res.headersSent ? res.statusCode : 0)((performance.now() - started) / 1000);
    });
  };
}
