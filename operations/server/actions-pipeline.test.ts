// The github backend's publish pipeline is GitHub Actions: on the emulator (testing/github-emulator-actions.ts)
// every push runs the workflow's three jobs and a signed webhook tells the service, which lists the runs as its
// deploy runs (stages = jobs, url = the run's page) and serves the commit of a run that succeeded — never one
// whose run failed. The webhook endpoint refuses a missing or wrong signature.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { sign } from '@octokit/webhooks-methods';
import { startServiceOn, WEBHOOK_SECRET, type BackendService } from '../../testing/backend-service.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';
import { skillFile } from '../../testing/content-git.ts';
import { adminHttp, assertError } from '../../testing/admin-http.ts';
import { lastPublished, runRecord, type ActionsPipeline } from './actions-pipeline.server.ts';

const TOKEN = 'actions-pipeline-admin-token-4f1e';
let service: BackendService;
const api = adminHttp(() => service.url, TOKEN);
const live = async () => ((await (await service.get('/api/health')).json()) as { content: { commit: string } }).content.commit;
const deploys = async (branch = 'main') => (await api.get(`/api/admin/deploys?branch=${branch}`)).body.runs as Array<Record<string, any>>;

before(async () => {
  service = await startServiceOn('github', { ADMIN_TOKEN: TOKEN, CONTENT_DIR: englishOnlyContent() });
});
after(() => service.stop());

describe('publishing through GitHub Actions', () => {
  it('serves a commit once its run succeeded, and lists the run with its jobs and its page', async () => {
    const write = await api.put({ path: 'content/skills/rust.md', content: skillFile('rust'), message: 'Add Rust' });
    assert.equal(write.status, 200, write.text);
    const sha = write.body.commit.sha as string;
    const run = await service.actions!.completed('main', sha);
    await service.actions!.settled();
    await service.services.pipeline.idle();
    assert.equal(await live(), sha);
    const [latest] = await deploys();
    assert.equal(latest!.id, String(run.id));
    assert.equal(latest!.commit, sha);
    assert.equal(latest!.status, 'success');
    assert.equal(latest!.url, run.html_url);
    assert.deepEqual(
      latest!.stages.map((s: any) => `${s.name}:${s.status}`),
      ['translate:skipped', 'build:success', 'deploy:success'],
    );
    assert.match(latest!.stages[0].note, /no model provider/);
  });

  it('never serves a commit whose run failed: the previous build stays live, and the run says why', async () => {
    const before = await live();
    service.actions!.switches.fail = () => true;
    try {
      const write = await api.put({ path: 'content/skills/zig.md', content: skillFile('zig'), message: 'Add Zig' });
      assert.equal(write.status, 200, write.text);
      const sha = write.body.commit.sha as string;
      await service.actions!.completed('main', sha);
      await service.actions!.settled();
      await service.services.pipeline.idle();
      assert.equal(await live(), before);
      const [latest] = await deploys();
      assert.equal(latest!.commit, sha);
      assert.equal(latest!.status, 'failure');
      assert.match(latest!.error, /^build failed: .*failed by the test switch/);
      assert.deepEqual(
        latest!.stages.map((s: any) => `${s.name}:${s.status}`),
        ['translate:skipped', 'build:failure', 'deploy:skipped'],
      );
      // A new instance (a fresh DATA_DIR) starts on what the last successful run published, not on the newer head.
      assert.equal(await service.emulator!.head('main'), sha);
      const fresh = await startServiceOn('github', { ADMIN_TOKEN: TOKEN, CONTENT_DIR: englishOnlyContent() }, { emulator: service.emulator! });
      try {
        assert.equal(fresh.services.corpus.build('main').commit, before);
      } finally {
        await fresh.stop();
      }
    } finally {
      service.actions!.switches.fail = () => false;
    }
  });

  it('notices a push made outside the service (the push webhook) and publishes it after its run', async () => {
    const sha = await service.emulator!.push('dev', [{ path: 'content/skills/ocaml.md', content: skillFile('ocaml') }], 'Pushed from a laptop');
    await service.actions!.completed('dev', sha);
    await service.actions!.settled();
    await service.services.pipeline.idle();
    const health = await (await fetch(`${service.devUrl}/api/health`)).json();
    assert.equal(health.content.commit, sha);
    assert.ok(service.actions!.deliveries.some((d) => d.event === 'push' && d.status === 204));
    assert.ok(service.actions!.deliveries.some((d) => d.event === 'workflow_run' && d.status === 204));
  });
});

describe('a translate job that fell short', () => {
  it('is partial with each failure in its note, and its run is still served', async () => {
    const note = '1 of 2 failed:\ncontent/i18n/fr/skills/go.md: The model provider failed (HTTP 500)';
    service.actions!.switches.translate = () => ({ status: 'partial', note });
    try {
      const write = await api.put({ path: 'content/skills/go.md', content: skillFile('go'), message: 'Add Go' });
      assert.equal(write.status, 200, write.text);
      const sha = write.body.commit.sha as string;
      await service.actions!.completed('main', sha);
      await service.actions!.settled();
      await service.services.pipeline.idle();
      assert.equal(await live(), sha, 'a partial translate is not a failed run');
      const [latest] = await deploys();
      assert.equal(latest!.status, 'success');
      assert.deepEqual(
        latest!.stages.map((s: any) => `${s.name}:${s.status}`),
        ['translate:partial', 'build:success', 'deploy:success'],
      );
      assert.equal(latest!.stages[0].note, note);
    } finally {
      service.actions!.switches.translate = () => undefined;
    }
  });
});

describe('runs finishing out of order', () => {
  it('never deploys an older run over a newer one that finished first; a run not started costs no jobs request', async () => {
    const actions = service.actions!;
    const pipeline = service.services.pipeline as ActionsPipeline;
    await pipeline.idle();
    actions.switches.hold = true;
    try {
      const older = (await api.put({ path: 'content/skills/haskell.md', content: skillFile('haskell'), message: 'Add Haskell' })).body.commit.sha as string;
      const newer = (await api.put({ path: 'content/skills/scala.md', content: skillFile('scala'), message: 'Add Scala' })).body.commit.sha as string;
      await actions.settled();
      const run = (sha: string) => actions.runs.find((r) => r.head_branch === 'main' && r.head_sha === sha)!;
      const jobsPath = new RegExp(`/actions/runs/(${run(older).id}|${run(newer).id})/jobs$`);
      await pipeline.refresh('main');
      await pipeline.settle();
      const listed = await deploys();
      assert.deepEqual(
        [older, newer].map((sha) => listed.find((r) => r.commit === sha)?.status),
        ['queued', 'queued'],
      );
      assert.ok(!service.emulator!.requests.some((r) => jobsPath.test(r.path)), 'jobs of runs not started were not asked for');

      await actions.release([run(newer).id]);
      await actions.settled();
      await pipeline.settle();
      assert.equal(await live(), newer);
      await actions.release([run(older).id]);
      await actions.settled();
      await pipeline.settle();
      assert.equal(run(older).conclusion, 'success');
      assert.equal((await deploys()).find((r) => r.commit === older)?.status, 'success');
      assert.equal(await live(), newer, 'the older run finished last, and changed nothing');
    } finally {
      actions.switches.hold = false;
      await actions.release();
      await actions.settled();
    }
  });
});

describe('what a new instance serves first', () => {
  const options = () => ({ token: service.emulator!.token, repository: service.emulator!.repository, apiUrl: service.emulator!.url, retryMs: 10 });

  it('is the commit of the newest successful run, also when GitHub fails a few times first', async () => {
    await service.services.pipeline.idle();
    const published = service.services.corpus.build('main').commit;
    service.emulator!.faults.serverErrors = { count: 2, match: /\/actions\/workflows\/publish\.yml\/runs$/ };
    assert.equal(await lastPublished(options(), 'main'), published);
    assert.equal(service.emulator!.faults.serverErrors.count, 0);
  });

  it('is not guessed when GitHub cannot say: a token that may not read the runs stops the start, naming the permission', async () => {
    const { startGitHubEmulator } = await import('../../testing/github-emulator.ts');
    const emulator = await startGitHubEmulator({ seedDir: englishOnlyContent() });
    try {
      const opts = { token: emulator.token, repository: emulator.repository, apiUrl: emulator.url, retryMs: 10 };
      assert.equal(await lastPublished(opts, 'main'), undefined, 'no workflow yet (404): nothing was published');
      // Registered before the emulated Actions' own routes, so it answers first.
      emulator.route('GET', /\/actions\/workflows\/publish\.yml\/runs$/, ({ send }) =>
        send(403, { message: 'Resource not accessible by personal access token' }),
      );
      await assert.rejects(lastPublished(opts, 'main'), (error: Error) => /"Actions: Read"/.test(error.message) && !error.message.includes(emulator.token));
      await assert.rejects(startServiceOn('github', { ADMIN_TOKEN: TOKEN, CONTENT_DIR: englishOnlyContent() }, { emulator }), /"Actions: Read"/);
    } finally {
      await emulator.close();
    }
  });
});

describe('the token', () => {
  it('is never logged, also when GitHub echoes it in an error', async () => {
    const { startGitHubEmulator } = await import('../../testing/github-emulator.ts');
    const { createActionsPipeline } = await import('./actions-pipeline.server.ts');
    const emulator = await startGitHubEmulator();
    const lines: string[] = [];
    try {
      emulator.route('GET', /\/actions\/workflows\/publish\.yml\/runs$/, ({ req, send }) =>
        send(502, { message: `upstream refused ${String(req.headers.authorization)}` }),
      );
      const pipeline = createActionsPipeline({
        token: emulator.token,
        repository: emulator.repository,
        apiUrl: emulator.url,
        build: () => Promise.reject(new Error('nothing to build')),
        deploy: () => Promise.resolve(),
        live: () => '0'.repeat(40),
        log: (line) => lines.push(line),
        pollMs: 0,
      });
      await pipeline.refresh('main');
      await pipeline.stop();
      assert.ok(
        lines.some((l) => /could not read the Actions runs: upstream refused/.test(l)),
        lines.join('\n'),
      );
      assert.ok(!lines.some((l) => l.includes(emulator.token)), lines.join('\n'));
    } finally {
      await emulator.close();
    }
  });
});

describe('without the webhook', () => {
  it('reads the runs itself (the poll), with If-None-Match: an unchanged list costs a 304', async () => {
    const hooks = service.actions!.webhookUrls.splice(0);
    try {
      const write = await api.put({ path: 'content/skills/elixir.md', content: skillFile('elixir'), message: 'Add Elixir, unheard' });
      const sha = write.body.commit.sha as string;
      await service.actions!.completed('main', sha);
      const pipeline = service.services.pipeline as ActionsPipeline;
      await pipeline.refresh('main');
      await pipeline.settle(); // the build, when it waited for the pause after the one before
      assert.equal(await live(), sha);
      const runsPath = /\/actions\/workflows\/publish\.yml\/runs$/;
      const before = service.emulator!.requests.length;
      await pipeline.refresh('main');
      const reads = service.emulator!.requests.slice(before).filter((r) => runsPath.test(r.path));
      assert.ok(reads.length >= 1, 'the runs were read');
      assert.ok(
        reads.every((r) => r.status === 304),
        `unchanged: ${reads.map((r) => r.status).join(', ')}`,
      );
    } finally {
      service.actions!.webhookUrls.push(...hooks);
    }
  });
});

describe('POST /api/admin/github/webhook', () => {
  const body = JSON.stringify({ ref: 'refs/heads/main', after: '0'.repeat(40) });
  const deliver = (headers: Record<string, string>, payload = body) =>
    fetch(`${service.url}/api/admin/github/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-GitHub-Event': 'push', ...headers },
      body: payload,
    });

  it('answers 401 without a signature, with a wrong one, or one of another body; no bearer token is asked for', async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { 'X-Hub-Signature-256': 'sha256=' + '0'.repeat(64) },
      { 'X-Hub-Signature-256': await sign('another-secret', body) },
      { 'X-Hub-Signature-256': await sign(WEBHOOK_SECRET, body + ' ') },
      { 'X-Hub-Signature-256': 'sha1=abc', Authorization: `Bearer ${TOKEN}` },
    ];
    for (const headers of attempts) {
      const res = await deliver(headers);
      const text = await res.text();
      assert.equal(res.status, 401, `${JSON.stringify(headers)}: ${text}`);
      assert.equal(JSON.parse(text).code, 'unauthorized');
    }
  });

  it('answers 401 to bytes other than the signed ones, also when they decode to the same text', async () => {
    const signed = JSON.stringify({ ref: 'refs/heads/main', after: '0'.repeat(40), head_commit: { message: 'caf\uFFFD' } });
    const signature = await sign(WEBHOOK_SECRET, signed);
    // U+FFFD as GitHub would send it (EF BF BD) replaced by one invalid byte, which a UTF-8 decoder also reads as U+FFFD.
    const utf8 = Buffer.from(signed, 'utf8');
    const at = utf8.indexOf(Buffer.from([0xef, 0xbf, 0xbd]));
    const altered = Buffer.concat([utf8.subarray(0, at), Buffer.from([0xff]), utf8.subarray(at + 3)]);
    assert.equal(altered.toString('utf8'), signed);
    const res = await fetch(`${service.url}/api/admin/github/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': signature },
      body: altered,
    });
    assert.equal(res.status, 401, await res.text());
    assert.equal((await deliver({ 'X-Hub-Signature-256': signature }, signed)).status, 204, 'the signed bytes themselves pass');
  });

  it('takes a signed delivery (204), and answers a ping', async () => {
    assert.equal((await deliver({ 'X-Hub-Signature-256': await sign(WEBHOOK_SECRET, body) })).status, 204);
    // That push deleted the branch (after: all zeros): no run is expected for it, so none is listed as queued.
    await (service.services.pipeline as ActionsPipeline).settle();
    assert.ok(!(await deploys()).some((r) => r.commit === '0'.repeat(40)), 'no run waits for the all-zeros commit');
    const ping = JSON.stringify({ zen: 'Keep it logically awesome.' });
    assert.equal((await deliver({ 'X-GitHub-Event': 'ping', 'X-Hub-Signature-256': await sign(WEBHOOK_SECRET, ping) }, ping)).status, 200);
  });

  it('is not answered on the local backend', async () => {
    const { startTestService } = await import('../../testing/service.ts');
    const local = await startTestService({ CONTENT_DIR: englishOnlyContent() });
    try {
      const res = await fetch(`${local.url}/api/admin/github/webhook`, {
        method: 'POST',
        body: '{}',
        headers: { 'X-Hub-Signature-256': await sign('x', '{}') },
      });
      assertError({ status: res.status, headers: res.headers, body: await res.json(), text: '' }, 503, 'repo_not_configured');
    } finally {
      await local.stop();
    }
  });

  // Last: it spends this address's failure budget, which the credentials of the tests above share.
  it('refuses an address whose signatures keep failing (429) before reading or hashing another body', async () => {
    const wrong = { 'X-Hub-Signature-256': 'sha256=' + 'f'.repeat(64) };
    let refused: Response | undefined;
    for (let i = 0; i < 11 && !refused; i++) {
      const res = await deliver(wrong);
      if (res.status === 429) refused = res;
      else assert.equal(res.status, 401);
      await res.text();
    }
    assert.ok(refused, 'refused within the budget of ten failures');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    // A declared 10 MB of which only the headers are sent is answered: nothing waited to read it.
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${service.url}/api/admin/github/webhook`);
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { ...wrong, 'Content-Type': 'application/json', 'Content-Length': String(10 * 1024 * 1024) },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
          req.destroy();
        },
      );
      req.on('error', reject);
      req.flushHeaders();
    });
    assert.equal(status, 429);
  });
});

describe('workflow runs as run records', () => {
  const sha = 'a'.repeat(40);
  const translated = 'b'.repeat(40);
  const run = { id: 7, head_branch: 'dev', head_sha: sha, html_url: 'https://github.com/o/r/actions/runs/7', created_at: '2026-01-01T00:00:00Z' };
  const job = (name: string, status: string, conclusion: string | null, steps?: Array<{ name: string; conclusion: string | null }>) => ({
    id: 1,
    name,
    status,
    conclusion,
    started_at: status === 'queued' ? null : '2026-01-01T00:00:01Z',
    completed_at: status === 'completed' ? '2026-01-01T00:00:02Z' : null,
    steps,
  });

  it('maps a run under way: running, each job its stage, the deploy job’s unevaluated name ignored', () => {
    const record = runRecord('dev', { ...run, status: 'in_progress', conclusion: null }, [
      job('translate', 'completed', 'success', [{ name: 'Translate', conclusion: 'success' }]),
      job('build', 'in_progress', null),
      job('deploy ${{ needs.build.outputs.commit }}', 'queued', null),
    ]);
    assert.equal(record.status, 'running');
    assert.equal(record.commit, sha);
    assert.deepEqual(
      record.stages.map((s) => `${s.name}:${s.status}`),
      ['translate:success', 'build:running', 'deploy:queued'],
    );
    assert.equal(record.url, run.html_url);
  });

  it('takes the commit the deploy job names (the translations’ commit), keeping the pushed one as its source', () => {
    const record = runRecord('dev', { ...run, status: 'completed', conclusion: 'success' }, [
      job('translate', 'completed', 'success', [{ name: 'Translate', conclusion: 'success' }]),
      job('build', 'completed', 'success'),
      job(`deploy ${translated}`, 'completed', 'success'),
    ]);
    assert.equal(record.status, 'success');
    assert.equal(record.commit, translated);
    assert.equal(record.sourceCommit, sha);
  });

  it('reads a translate job that fell short from its steps: partial or failure, its warning the note, the run a success', () => {
    const fellShort = (step: string) => [
      job('translate', 'completed', 'success', [
        { name: 'Translate', conclusion: 'success' },
        { name: 'Some translations failed', conclusion: step === 'partial' ? 'success' : 'skipped' },
        { name: 'No translation was made', conclusion: step === 'failure' ? 'success' : 'skipped' },
      ]),
      job('build', 'completed', 'success'),
      job(`deploy ${sha}`, 'completed', 'success'),
    ];
    const note = '2 failed:\ncontent/i18n/fr/brief.md, content/i18n/ja/brief.md: timeout';
    const partial = runRecord('dev', { ...run, status: 'completed', conclusion: 'success' }, fellShort('partial'), [], new Map([[1, note]]));
    assert.equal(partial.status, 'success');
    assert.deepEqual([partial.stages[0]!.status, partial.stages[0]!.note], ['partial', note]);
    const none = runRecord('dev', { ...run, status: 'completed', conclusion: 'success' }, fellShort('failure'));
    assert.equal(none.stages[0]!.status, 'failure');
    assert.match(none.stages[0]!.note!, /the run on GitHub says which/, 'without the warning, where to look');
    assert.equal(runRecord('dev', { ...run, status: 'completed', conclusion: 'success' }, fellShort('neither')).stages[0]!.status, 'success');
  });

  it('says why a run failed from the failed job and its annotations, and cancels what never ran', () => {
    const record = runRecord(
      'dev',
      { ...run, status: 'completed', conclusion: 'failure' },
      [job('translate', 'completed', 'success', [{ name: 'Translate', conclusion: 'skipped' }]), job('build', 'completed', 'failure')],
      ['content/skills/x.md:3: category must be one of …'],
    );
    assert.equal(record.status, 'failure');
    assert.equal(record.error, 'build failed: content/skills/x.md:3: category must be one of …');
    assert.deepEqual(
      record.stages.map((s) => `${s.name}:${s.status}`),
      ['translate:skipped', 'build:failure', 'deploy:cancelled'],
    );
    assert.match(record.stages[0]!.note!, /no model provider/);
  });
});
