// /metrics over real HTTP, scraped before and after a scripted run — reads (a page and an API answer twice, so
// the caches hit), a commit through the publish pipeline, a chat with the scripted model, refused sign-ins —
// and each series is found with the count that run adds. Also who may read it, and that a route label is a
// template: an address anyone makes up adds no series.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { eventually } from '../../testing/admin-http.ts';
import { CREDENTIAL_FAILURES } from '../server/credential-throttle.server.ts';
import { startServiceOn, type BackendService } from '../../testing/backend-service.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai.ts';
import { startTestService, type TestService } from '../../testing/service.ts';

const ADMIN_TOKEN = 'metrics-suite-admin-token-7c2e';
const METRICS_TOKEN = 'metrics-suite-scrape-token-91ab';
let service: TestService;
let model: FakeOpenAI;

before(async () => {
  model = await startFakeOpenAI();
  // TRUST_PROXY: the tests that spend a failure budget do it from an address of their own (X-Forwarded-For), and the
  // scrapes from the socket's address keep working.
  service = await startTestService({ ADMIN_TOKEN, METRICS_TOKEN, OPENAI_BASE_URL: model.url, TRUST_PROXY: '1' }, { site: true });
});
after(async () => {
  await service.stop();
  await model.close();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of match[2]?.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g) ?? []) labels[name!] = value!.replace(/\\(.)/g, '$1');
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

const scrape = async (from: TestService = service) => {
  const res = await from.get('/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  assert.equal(res.status, 200);
  return parseExposition(await res.text());
};

/** The sum of the samples named `name` whose labels include `labels`. */
const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);

/** What a stretch of the run added to each series asked for. */
async function added(run: () => Promise<void>, from: TestService = service): Promise<(name: string, labels?: Record<string, string>) => number> {
  const before = await scrape(from);
  await run();
  const after = await scrape(from);
  return (name, labels) => valueOf(after, name, labels) - valueOf(before, name, labels);
}

const skill = (name: string) => `---\nname: ${name}\ncategory: engineering\n---\nDashboards and alerts.\n`;
const writeFile = (to: TestService, path: string, content: string) =>
  to.get('/api/admin/file', {
    method: 'PUT',
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ branch: 'dev', path, content, message: `Write ${path}` }),
  });

const mcp = (body: unknown) =>
  service.get('/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });

describe('who may read /metrics', () => {
  it('answers 200 in the Prometheus text format with METRICS_TOKEN and with the admin token', async () => {
    for (const token of [METRICS_TOKEN, ADMIN_TOKEN]) {
      const res = await service.get('/metrics', { headers: { Authorization: `Bearer ${token}` } });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.match(await res.text(), /^# TYPE vitae_http_request_duration_seconds histogram$/m);
    }
  });

  it('answers 404 as for a page the site does not have without a token, with a wrong one, and on the preview port', async () => {
    const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
    const unknown = await service.get(`/no-such-page-${randomBytes(4).toString('hex')}`);
    const refusals = await Promise.all([
      service.get('/metrics'),
      service.get('/metrics', { headers: bearer('not-the-metrics-token-at-all') }),
      service.get('/metrics', { headers: { Authorization: METRICS_TOKEN } }),
      fetch(`${service.devUrl}/metrics`, { headers: bearer(METRICS_TOKEN) }),
    ]);
    assert.equal(unknown.status, 404);
    for (const res of refusals) {
      assert.equal(res.status, 404);
      for (const header of ['content-type', 'content-security-policy', 'x-frame-options', 'cross-origin-resource-policy'])
        assert.equal(res.headers.get(header) === null, unknown.headers.get(header) === null, `${header} as on any page`);
      assert.equal(res.headers.get('content-type'), unknown.headers.get('content-type'));
      assert.equal(res.headers.get('www-authenticate'), null, 'no invitation to send a token');
      assert.doesNotMatch(await res.text(), /vitae_/);
    }
    await unknown.text();
  });

  it('answers that same 404, even to the right token, once the address has failed too often, and counts it', async () => {
    const from = { 'X-Forwarded-For': '198.51.100.44' };
    const unknown = await service.get(`/no-such-page-${randomBytes(4).toString('hex')}`, { headers: from });
    const delta = await added(async () => {
      for (let i = 0; i < CREDENTIAL_FAILURES; i++)
        assert.equal((await service.get('/metrics', { headers: { ...from, Authorization: `Bearer not-the-metrics-token-${i}` } })).status, 404);
      const refused = await service.get('/metrics', { headers: { ...from, Authorization: `Bearer ${METRICS_TOKEN}` } });
      assert.equal(refused.status, 404);
      for (const header of ['content-type', 'content-security-policy', 'x-frame-options', 'cache-control', 'retry-after'])
        assert.equal(refused.headers.get(header) === null, unknown.headers.get(header) === null, `${header} as on any page`);
      assert.doesNotMatch(await refused.text(), /vitae_/);
    });
    assert.equal(delta('vitae_throttled_total', { kind: 'metrics' }), 1);
    await unknown.text();
  });

  it('is left out of /openapi.json', async () => {
    const doc = (await (await service.get('/openapi.json')).json()) as { paths: Record<string, unknown> };
    assert.ok(!('/metrics' in doc.paths));
  });
});

describe('what a scripted run adds', () => {
  it('counts reads by route template, with the page cache and the REST and MCP answer caches hitting on the second ask', async () => {
    const delta = await added(async () => {
      for (let i = 0; i < 2; i++) {
        assert.equal((await service.get('/entries/concierge-copilot')).status, 200);
        assert.equal((await service.get('/api/v1/entries')).status, 200);
        assert.equal((await mcp({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' })).status, 200);
      }
    });
    const count = 'vitae_http_request_duration_seconds_count';
    assert.equal(delta(count, { route: '/:lang?/entries/:slug', method: 'GET', status: '200' }), 2);
    assert.equal(delta(count, { route: '/api/v1/entries', method: 'GET', status: '200' }), 2);
    assert.equal(delta(count, { route: '/mcp', method: 'POST', status: '200' }), 2);
    for (const cache of ['page', 'rest', 'mcp']) {
      assert.equal(delta('vitae_cache_misses_total', { cache }), 1, `${cache} cache: the first ask made the answer`);
      assert.equal(delta('vitae_cache_hits_total', { cache }), 1, `${cache} cache: the second found it`);
    }
  });

  it('labels a request with its route template, so addresses a caller makes up add no series', async () => {
    const made = Array.from({ length: 3 }, () => randomBytes(6).toString('hex'));
    // (the request series only: a build or a git process the service runs meanwhile adds series of its own)
    const requestSeries = (samples: Sample[]) => samples.filter((s) => s.name.startsWith('vitae_http_')).length;
    const seriesBefore = requestSeries(await scrape());
    const delta = await added(async () => {
      for (const slug of made) assert.equal((await service.get(`/api/v1/entries/${slug}`)).status, 404);
      for (const slug of made) assert.equal((await service.get(`/entries/${slug}`)).status, 404);
      for (const slug of made) assert.equal((await service.get(`/api/v1/${slug}`)).status, 404);
    });
    const count = 'vitae_http_request_duration_seconds_count';
    assert.equal(delta(count, { route: '/api/v1/entries/{slug}', method: 'GET', status: '404' }), 3);
    assert.equal(delta(count, { route: '/:lang?/entries/:slug', method: 'GET', status: '404' }), 3);
    assert.equal(delta(count, { route: 'unmatched', method: 'GET', status: '404' }), 3, 'service paths no route claims share one label');
    const after = await scrape();
    const labels = after.flatMap((s) => Object.values(s.labels));
    for (const slug of made) assert.ok(!labels.some((value) => value.includes(slug)), 'no label carries an address a caller made up');
    // At most one new series per template and status (each a histogram's buckets, sum and count), not one per address.
    assert.ok(requestSeries(after) - seriesBefore <= 3 * 20, `${requestSeries(after) - seriesBefore} new request samples`);
  });

  it('times a commit through the publish pipeline: each stage, the run, its build and the git processes', async () => {
    const delta = await added(async () => {
      const res = await writeFile(service, 'content/skills/observability.md', skill('Observability'));
      assert.equal(res.status, 200, await res.text());
      await service.services.pipeline.idle();
    });
    const stages = 'vitae_publish_stage_duration_seconds_count';
    assert.equal(delta(stages, { stage: 'translate' }), 1, 'the translate stage finished once, whatever it made');
    assert.equal(delta(stages, { stage: 'build', status: 'success' }), 1);
    assert.equal(delta(stages, { stage: 'deploy', status: 'success' }), 1);
    assert.equal(delta('vitae_publish_runs_total', { branch: 'dev', status: 'success' }), 1);
    assert.equal(delta('vitae_build_duration_seconds_count', { outcome: 'success' }), 1);
    assert.ok(delta('vitae_git_command_duration_seconds_count', { outcome: 'ok' }) > 0, 'the local backend ran git');
    assert.equal(delta('vitae_git_command_duration_seconds_count', { outcome: 'error' }), 0);
  });

  it('counts a chat’s model requests, the tokens the provider reported and a failed request by its kind', async () => {
    const chat = (question: string) =>
      service.get('/api/chat', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: question }] }),
      });
    const delta = await added(async () => {
      // A tool call and then the answer: two requests to the model, each reporting 10 tokens in and 5 out.
      model.script({ toolCalls: [{ name: 'search_subject', arguments: { q: 'hotel' } }] }, { text: 'Noa built a concierge (concierge-copilot).' });
      const answered = await chat('What did Noa build?');
      assert.equal(answered.status, 200);
      await answered.text();
      // A request the provider refuses as malformed is not retried: one failed request.
      model.script({ status: 400, error: 'bad request' });
      await (await chat('And then?')).text();
    });
    assert.equal(delta('vitae_model_request_duration_seconds_count', { feature: 'chat', outcome: 'ok' }), 2);
    assert.equal(delta('vitae_model_tokens_total', { feature: 'chat', direction: 'input' }), 20);
    assert.equal(delta('vitae_model_tokens_total', { feature: 'chat', direction: 'output' }), 10);
    assert.equal(delta('vitae_model_request_duration_seconds_count', { feature: 'chat', outcome: 'error' }), 1);
    assert.equal(delta('vitae_model_errors_total', { feature: 'chat', kind: 'client' }), 1);
  });

  it('counts sign-ins refused by the login throttle', async () => {
    const login = () =>
      service.get('/api/admin/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.45' },
        body: JSON.stringify({ token: 'a-wrong-guess-0000' }),
      });
    const delta = await added(async () => {
      for (let i = 0; i < CREDENTIAL_FAILURES; i++) assert.equal((await login()).status, 401);
      assert.equal((await login()).status, 429);
    });
    assert.equal(delta('vitae_throttled_total', { kind: 'login' }), 1);
    assert.equal(delta('vitae_http_request_duration_seconds_count', { route: '/api/admin/login', status: '429' }), 1);
  });

  it('reports the process: memory, event-loop lag and garbage collection', async () => {
    const names = new Set((await scrape()).map((s) => s.name));
    for (const name of ['process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds'])
      assert.ok(names.has(name), name);
  });
});

describe('the github backend in /metrics', () => {
  let github: BackendService;
  before(async () => {
    github = await startServiceOn('github', { ADMIN_TOKEN, METRICS_TOKEN });
  });
  after(() => github.stop());

  it('counts GitHub API requests by client and outcome, each retry one, and keeps the rate limit left', async () => {
    const delta = await added(async () => {
      // The commit's first try meets a 502 and is retried.
      github.emulator!.faults.serverErrors = { count: 1, status: 502, match: /createCommitOnBranch/ };
      const res = await writeFile(github, 'content/skills/tracing.md', skill('Tracing'));
      assert.equal(res.status, 200, await res.text());
      // The push starts an Actions run, which the service follows through the Actions API.
      await eventually('the run read', async () =>
        valueOf(await scrape(github), 'vitae_github_requests_total', { client: 'actions' }) > 0 ? true : undefined,
      );
    }, github);
    assert.equal(delta('vitae_github_requests_total', { client: 'repo', outcome: 'server_error' }), 1);
    assert.ok(delta('vitae_github_requests_total', { client: 'repo', outcome: 'ok' }) > 0);
    assert.equal(valueOf(await scrape(github), 'vitae_github_rate_limit_remaining', { resource: 'core' }), 5000);
  });
});
