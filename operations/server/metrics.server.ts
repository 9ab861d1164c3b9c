// What `/metrics` reports, in the Prometheus text format through prom-client: one registry per process, as a
// Prometheus target is a process (prom-client's default process metrics are the process's anyway). The series
// are made here, once, and named as docs/deploy.md lists them ("Metrics"); the code that observes imports the small
// functions below, and the floors that may not import this one (repo/) are handed them by services.server.ts.
//
// Label values come only from sets the code fixes (route templates, operation buckets, stage names, a status
// class): nothing a caller sends can make a new series.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Run, StageName, StageStatus } from './pipeline.server.ts';

const registry = new Registry();

/** Seconds, from a millisecond answer to a ten-minute build: the buckets each histogram below picks from. */
const FAST = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SLOW = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
const MODEL = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120];

export const httpRequestDuration = new Histogram({
  name: 'vitae_http_request_duration_seconds',
  help: 'Time from a request reaching the service to its answer finished (or the client gone), by route template, method and status (aborted: the client left before an answer).',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: FAST,
  registers: [registry],
});

const cacheHits = new Counter({
  name: 'vitae_cache_hits_total',
  help: 'Answers found in a cache: page (rendered pages), rest and mcp (answers of pure reads, per build).',
  labelNames: ['cache'] as const,
  registers: [registry],
});
const cacheMisses = new Counter({
  name: 'vitae_cache_misses_total',
  help: 'Answers a cache did not hold and that were made (page, rest, mcp).',
  labelNames: ['cache'] as const,
  registers: [registry],
});

const publishStageDuration = new Histogram({
  name: 'vitae_publish_stage_duration_seconds',
  help: 'Each finished stage of a publish run (translate, build, deploy), by its status.',
  labelNames: ['stage', 'status'] as const,
  buckets: SLOW,
  registers: [registry],
});
const publishRuns = new Counter({
  name: 'vitae_publish_runs_total',
  help: 'Publish runs finished, by branch and outcome (success, failure, cancelled: superseded by a newer commit).',
  labelNames: ['branch', 'status'] as const,
  registers: [registry],
});
const buildDuration = new Histogram({
  name: 'vitae_build_duration_seconds',
  help: 'Builds of a commit (validated corpus and search index) made or loaded: at start, in publish runs, after a GitHub Actions run.',
  labelNames: ['outcome'] as const,
  buckets: SLOW,
  registers: [registry],
});

export const modelRequestDuration = new Histogram({
  name: 'vitae_model_request_duration_seconds',
  help: 'Requests to the model provider (each step of a tool loop and each retry is one), by feature and outcome.',
  labelNames: ['feature', 'outcome'] as const,
  buckets: MODEL,
  registers: [registry],
});
export const modelTokens = new Counter({
  name: 'vitae_model_tokens_total',
  help: 'Tokens the provider reported using, by feature and direction (input, output); providers that report no usage add nothing.',
  labelNames: ['feature', 'direction'] as const,
  registers: [registry],
});
export const modelErrors = new Counter({
  name: 'vitae_model_errors_total',
  help: 'Failed model requests by feature and kind (rate_limited, auth, client, server, network, timeout, aborted, invalid_response, other).',
  labelNames: ['feature', 'kind'] as const,
  registers: [registry],
});

const throttled = new Counter({
  name: 'vitae_throttled_total',
  help: 'Requests refused for a spent budget, by kind: a credential checked once its failure budget was spent (bearer: the admin token on the API and /mcp/admin, session: a console cookie, login: the sign-in form, metrics: the /metrics token, webhook: the signature of a GitHub delivery), the rate-limit bucket (ask, chat, transcribe), or work: a client holding its share of the anonymous work queue.',
  labelNames: ['kind'] as const,
  registers: [registry],
});

const githubRequests = new Counter({
  name: 'vitae_github_requests_total',
  help: 'HTTP requests to the GitHub API (each retry is one), by client (repo: the content, actions: the publish runs) and outcome.',
  labelNames: ['client', 'outcome'] as const,
  registers: [registry],
});
const githubRateLimitRemaining = new Gauge({
  name: 'vitae_github_rate_limit_remaining',
  help: 'Requests left in the GitHub rate-limit window, as its last answer said (x-ratelimit-remaining), by resource.',
  labelNames: ['resource'] as const,
  registers: [registry],
});
const gitCommandDuration = new Histogram({
  name: 'vitae_git_command_duration_seconds',
  help: 'git processes run by the local backend, by subcommand and outcome.',
  labelNames: ['command', 'outcome'] as const,
  buckets: FAST,
  registers: [registry],
});

let processMetrics = false;
/** Memory, CPU, event-loop lag, GC and handles (prom-client's defaults), from the first call on: once per process. */
export function startProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
}

export const metricsContentType = registry.contentType;

/** The scrape: every series in the text format. */
export function metricsText(): Promise<string> {
  return registry.metrics();
}

/** Every sample name a scrape can show (a histogram's `_bucket`, `_sum` and `_count`): what dashboards and alerts may name. */
export async function exportedMetricNames(): Promise<Set<string>> {
  startProcessMetrics();
  const names = new Set<string>();
  for (const metric of await registry.getMetricsAsJSON()) {
    const type = String(metric.type); // 'histogram', 'counter'…: the typings say an enum of numbers, which it is not
    if (type === 'histogram') names.add(`${metric.name}_bucket`);
    if (type === 'histogram' || type === 'summary') names.add(`${metric.name}_sum`).add(`${metric.name}_count`);
    if (type !== 'histogram') names.add(metric.name);
  }
  return names;
}

// ---------------------------------------------------------------------------------------------------
// Observers, each bound to its label values once (a child per value: nothing built per observation).

/** A cache's hit and miss counters. */
export function cacheCounters(cache: 'page' | 'rest' | 'mcp' | 'site' | 'agent'): { hit(): void; miss(): void } {
  const hits = cacheHits.labels(cache);
  const misses = cacheMisses.labels(cache);
  // Both series exist from the start: a hit ratio is defined before the first miss.
  hits.inc(0);
  misses.inc(0);
  return { hit: () => hits.inc(), miss: () => misses.inc() };
}

/** A request refused for a spent budget: a credential's kind (`bearer`, `session`, `login`, `metrics`), or a rate-limit bucket's name (fixed in the contract). */
export function countThrottled(kind: string): void {
  throttled.inc({ kind });
}

/** Times a build; its outcome is whether it resolved. */
export async function timedBuild<B>(make: () => Promise<B>): Promise<B> {
  const started = performance.now();
  try {
    const build = await make();
    buildDuration.observe({ outcome: 'success' }, (performance.now() - started) / 1000);
    return build;
  } catch (error) {
    buildDuration.observe({ outcome: 'failure' }, (performance.now() - started) / 1000);
    throw error;
  }
}

const FINISHED_STAGE: ReadonlySet<StageStatus> = new Set(['success', 'partial', 'failure', 'skipped', 'cancelled']);
const FINISHED_RUN: ReadonlySet<Run['status']> = new Set(['success', 'failure', 'cancelled']);

/**
 * Follows a pipeline's runs (local or GitHub Actions alike): a stage's duration when it finishes, a run's outcome
 * when it ends. Only changes seen happening count: a run first seen finished (a record read again after a
 * restart, an old Actions run listed again) was counted by the process that saw it run.
 */
export function observePipeline(pipeline: { onChange(listener: (run: Run) => void): () => void }): () => void {
  const open = new Map<string, Map<StageName, StageStatus>>();
  return pipeline.onChange((run) => {
    const before = open.get(run.id);
    const finished = FINISHED_RUN.has(run.status);
    if (!before && finished) return;
    for (const stage of run.stages) {
      const was = before?.get(stage.name);
      if (!FINISHED_STAGE.has(stage.status) || was === undefined || FINISHED_STAGE.has(was) || !stage.startedAt || !stage.finishedAt) continue;
      const seconds = Math.max(0, Date.parse(stage.finishedAt) - Date.parse(stage.startedAt)) / 1000;
      publishStageDuration.observe({ stage: stage.name, status: stage.status }, seconds);
    }
    if (finished) {
      publishRuns.inc({ branch: run.branch, status: run.status });
      open.delete(run.id);
    } else open.set(run.id, new Map(run.stages.map((stage) => [stage.name, stage.status])));
  });
}

/** What the local backend tells of each git process it ran. */
export function observeGitCommand(command: string, seconds: number, ok: boolean): void {
  // Subcommands are the code's own words; anything else (an option first) is one label.
  gitCommandDuration.observe({ command: /^[a-z][a-z-]{0,31}$/.test(command) ? command : 'other', outcome: ok ? 'ok' : 'error' }, seconds);
}

/** The outcome of one GitHub API answer, by what GitHub says rather than by the status alone (a 403 may be a rate limit). */
function githubOutcome(status: number, headers: Headers): string {
  if (status === 304) return 'not_modified';
  if (status < 400) return 'ok';
  if (status === 429 || (status === 403 && (headers.get('x-ratelimit-remaining') === '0' || headers.has('retry-after')))) return 'rate_limited';
  return status >= 500 ? 'server_error' : 'client_error';
}

/**
 * A `fetch` for Octokit (`request: { fetch }`) that counts each request by outcome and keeps the rate limit left
 * from the answer's headers. Below Octokit's retry and throttling plugins: every try is seen.
 */
export function countedGitHubFetch(client: 'repo' | 'actions', inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    let response: Response;
    try {
      response = await inner(input, init);
    } catch (error) {
      githubRequests.inc({ client, outcome: 'network_error' });
      throw error;
    }
    githubRequests.inc({ client, outcome: githubOutcome(response.status, response.headers) });
    const remaining = Number(response.headers.get('x-ratelimit-remaining') ?? NaN);
    if (Number.isFinite(remaining)) {
      const resource = response.headers.get('x-ratelimit-resource') ?? 'core';
      githubRateLimitRemaining.set({ resource: /^[a-z_]{1,32}$/.test(resource) ? resource : 'other' }, remaining);
    }
    return response;
  };
}
