// The github backend against the GitHub emulator on a bad day: 5xx retried then 502, rate limits waited out
// (secondary per retry-after, primary until the reset), a token refused (401) or without a permission (403)
// as 502 naming it, a branch that moves mid-commit (retried when the files we touch are untouched there, 409
// otherwise), a connection cut before or after the commit lands (never half a commit, never two), reads
// answered from the caches, the start's checks, and the token in no log line, error or answer.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../contract/errors.ts';
import { createGitHubRepo, type GitHubRepoOptions } from './github-repo.server.ts';
import { contentGit, skillFile } from '../../testing/content-git.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';
import { startGitHubEmulator, type GitHubEmulator } from '../../testing/github-emulator.ts';
import { startServiceOn, WEBHOOK_SECRET } from '../../testing/backend-service.ts';
import { startTestService } from '../../testing/service.ts';
import { ConfigError } from '../server/config.server.ts';

let emulator: GitHubEmulator;
const logs: string[] = [];
const errors: string[] = [];
before(async () => {
  emulator = await startGitHubEmulator({ seedDir: englishOnlyContent() });
});
after(async () => {
  await emulator.close();
});

/** A backend on the emulator with short waits (the retry plugin's unit, a rate limit's second) so tests run fast. */
function open(options: Partial<GitHubRepoOptions> = {}) {
  return createGitHubRepo({
    token: emulator.token,
    repository: emulator.repository,
    apiUrl: emulator.url,
    writeIntervalMs: 0,
    retryBaseMs: 5,
    rateLimitUnitMs: 20,
    log: (line) => logs.push(line),
    ...options,
  });
}
const outside = () => contentGit(emulator.dir);
/** The requests made while `run` ran, as "METHOD path status". */
async function requestsOf(run: () => Promise<unknown>): Promise<string[]> {
  const from = emulator.requests.length;
  await run();
  return emulator.requests.slice(from).map((r) => `${r.method} ${r.path}${r.operation ? ` ${r.operation}` : ''} ${r.status}`);
}
const rejectsWith = (status: number, code: string, pattern: RegExp) => (e: unknown) => {
  assert.ok(e instanceof AppError, String(e));
  errors.push(e.message, JSON.stringify(e.toBody()));
  assert.equal(e.code, code);
  assert.equal(e.status, status, e.message);
  assert.match(e.message, pattern);
  return true;
};
let n = 0;
const newSkill = () => {
  n++;
  return { path: `content/skills/fault-${n}.md`, content: skillFile(`Fault ${n}`) };
};

describe('GitHub failing', () => {
  it('retries a 5xx and then succeeds', async () => {
    const repo = open();
    emulator.faults.serverErrors = { count: 2, status: 502, match: /git\/trees/ };
    const seen = await requestsOf(() => repo.listFiles('main', 'content/skills'));
    assert.deepEqual(
      seen.filter((r) => r.includes('/git/trees/')).map((r) => r.split(' ').pop()),
      ['502', '502', '200'],
    );
  });

  it('answers 502 repo_error when GitHub keeps failing, and the branch is untouched', async () => {
    const repo = open();
    await repo.head('main');
    const head = outside().head();
    emulator.faults.serverErrors = { count: 10, status: 503, match: /createCommitOnBranch/ };
    await assert.rejects(repo.commit('main', [newSkill()], 'x'), rejectsWith(502, 'repo_error', /GitHub failed while committing to main \(503/));
    assert.equal(emulator.faults.serverErrors.count, 6, 'the first try and three retries');
    emulator.faults.serverErrors.count = 0;
    assert.equal(outside().head(), head);
  });

  for (const kind of ['secondary', '429', 'primary'] as const) {
    it(`waits out a ${kind} rate limit and then commits`, async () => {
      const repo = open();
      emulator.faults.rateLimit = { count: 1, kind, retryAfterSeconds: 1, match: /createCommitOnBranch/ };
      const before = logs.length;
      const seen = await requestsOf(() => repo.commit('main', [newSkill()], `after a ${kind} limit`));
      assert.deepEqual(
        seen.filter((r) => r.startsWith('POST /graphql createCommitOnBranch')).map((r) => r.split(' ').pop()),
        [kind === '429' ? '429' : '403', '200'],
      );
      assert.equal(emulator.faults.rateLimit.count, 0);
      assert.equal(outside().git(['log', '-1', '--format=%s', 'refs/heads/main']), `after a ${kind} limit`);
      assert.ok(
        logs.slice(before).some((l) => /rate limit/.test(l) && /waiting \ds/.test(l)),
        logs.slice(before).join('\n'),
      );
    });
  }

  it('answers 502 saying GitHub could not be reached when nothing answers, after retrying', async () => {
    await assert.rejects(
      open({ apiUrl: 'http://127.0.0.1:9' }).listFiles('main', 'content'),
      rejectsWith(502, 'repo_error', /could not be reached.*GITHUB_API_URL/),
    );
  });

  it('answers 502 naming GITHUB_TOKEN when the token is refused (401)', async () => {
    const repo = open({ token: 'ghp_not_the_token' });
    await assert.rejects(repo.listFiles('main', 'content'), rejectsWith(502, 'repo_error', /401.*GITHUB_TOKEN is invalid or expired/));
  });

  it('answers 502 naming the missing permission when the token may only read (403), writing nothing', async () => {
    const repo = open();
    const head = outside().head();
    emulator.faults.readOnly = true;
    try {
      assert.ok((await repo.listFiles('main', 'content/skills')).length > 0, 'reads still work');
      await assert.rejects(repo.commit('main', [newSkill()], 'x'), rejectsWith(502, 'repo_error', /403.*"Contents: Read and write"/));
      await assert.rejects(repo.commit('dev', [newSkill()], 'x'), rejectsWith(502, 'repo_error', /"Contents: Read and write"/));
    } finally {
      emulator.faults.readOnly = false;
    }
    assert.equal(outside().head(), head);
  });

  it('answers 502 naming the read permission when the token cannot see the repository', async () => {
    emulator.faults.noAccess = true;
    try {
      await assert.rejects(
        open().listFiles('main', 'content'),
        rejectsWith(502, 'repo_error', /does not exist or the token lacks the "Contents: Read" permission/),
      );
    } finally {
      emulator.faults.noAccess = false;
    }
  });
});

describe('a branch that moves mid-commit', () => {
  it('is built on when the push left our files alone: one commit on top of the push', async () => {
    const repo = open();
    const ours = newSkill();
    let pushed = '';
    emulator.faults.beforeRefUpdate = async () => {
      pushed = await emulator.push('main', [newSkill()], 'a push in between');
    };
    const outcome = await repo.commit('main', [ours], 'ours, after the push');
    assert.ok(pushed);
    assert.deepEqual(outside().parents(outcome.commit.sha), [pushed]);
    assert.equal(outside().head(), outcome.commit.sha);
    assert.deepEqual(outside().changes(outcome.commit.sha), [`A ${ours.path}`]);
  });

  it('answers 409 when the push changed a file we touch, and leaves the push as it is', async () => {
    const repo = open();
    const file = newSkill();
    await repo.commit('main', [file], 'base');
    let pushed = '';
    emulator.faults.beforeRefUpdate = async () => {
      pushed = await emulator.push('main', [{ path: file.path, content: skillFile('Theirs') }], 'theirs');
    };
    await assert.rejects(
      repo.commit('main', [{ path: file.path, content: skillFile('Ours') }], 'ours'),
      rejectsWith(409, 'repo_error', /moved while committing/),
    );
    assert.equal(outside().head(), pushed);
    assert.equal(outside().show('main', file.path), skillFile('Theirs'));
  });

  it('is re-validated on the new head: a push that makes our change invalid is 422, nothing written', async () => {
    const repo = open();
    // Our new project names a skill that the push deletes.
    const skill = newSkill();
    await repo.commit('main', [skill], 'a skill to name');
    const slug = skill.path.replace(/^content\/skills\/|\.md$/g, '');
    const entry = outside()
      .git(['ls-tree', '-r', '--name-only', 'refs/heads/main', 'content/corpus'])
      .split('\n')
      .find((p) => p.endsWith('.md'))!;
    const text = outside()
      .show('main', entry)!
      .replace(/^skills: \[/m, `skills: [${slug}, `);
    assert.ok(text.includes(slug), 'the entry names the skill');
    let pushed = '';
    emulator.faults.beforeRefUpdate = async () => {
      pushed = await emulator.push('main', [{ path: skill.path, delete: true }], 'drop the skill');
    };
    await assert.rejects(repo.commit('main', [{ path: entry, content: text }], 'name it'), (e: unknown) => e instanceof AppError && e.code === 'invalid');
    assert.equal(outside().head(), pushed);
  });
});

describe('a connection cut mid-commit', () => {
  it('before the commit lands: retried, and the branch ends at exactly one new commit', async () => {
    const repo = open();
    const head = outside().head();
    emulator.faults.dropWrite = 'before';
    const outcome = await repo.commit('main', [newSkill()], 'cut before');
    assert.deepEqual(outside().parents(outcome.commit.sha), [head]);
    assert.equal(outside().head(), outcome.commit.sha);
  });

  it('after the commit landed (the answer lost): the retry finds it, no second commit', async () => {
    const repo = open();
    const head = outside().head();
    emulator.faults.dropWrite = 'after';
    const outcome = await repo.commit('main', [newSkill()], 'cut after');
    assert.equal(outside().head(), outcome.commit.sha);
    assert.deepEqual(outside().parents(outcome.commit.sha), [head], 'one commit, on the head we read');
    assert.equal(outside().count(`${head}..refs/heads/main`), 1);
  });

  it('after the commit landed with a message of several lines: the retry still knows it as its own', async () => {
    const repo = open();
    const head = outside().head();
    emulator.faults.dropWrite = 'after';
    // GitHub records the headline, a blank line, then the body: not the message as given.
    const outcome = await repo.commit('main', [newSkill()], 'cut after, told twice\nwhy: the body on the next line\n');
    assert.equal(outside().head(), outcome.commit.sha);
    assert.equal(outside().count(`${head}..refs/heads/main`), 1);
  });

  it('with GitHub gone for good: 502, and the branch is either untouched or fully at the new commit', async () => {
    const repo = open();
    const head = outside().head();
    emulator.faults.dropWrite = 'after';
    emulator.faults.serverErrors = { count: 10, match: /createCommitOnBranch|git\/ref|git\/commits/ };
    await assert.rejects(repo.commit('main', [newSkill()], 'cut for good'), rejectsWith(502, 'repo_error', /GitHub failed/));
    emulator.faults.serverErrors.count = 0;
    const now = outside().head();
    assert.ok(now === head || outside().parents(now)[0] === head, 'untouched, or one whole commit on top');
    assert.equal(outside().fsck().status, 0);
  });
});

describe('reads', () => {
  it('cost one recursive tree call per head and one call per new blob; repeated reads only a 304 on the ref', async () => {
    const repo = open();
    const first = await requestsOf(() => repo.listFiles('main', 'content'));
    assert.deepEqual(
      first.map((r) => r.replace(/[0-9a-f]{40}/, '<sha>')),
      ['GET /repos/vitae-test/profile/git/ref/heads/main 200', 'GET /repos/vitae-test/profile/git/trees/<sha> 200'],
    );
    const read = await requestsOf(() => repo.readFile('main', 'content/brief.md'));
    assert.deepEqual(
      read.map((r) => r.replace(/[0-9a-f]{40}/, '<sha>')),
      ['GET /repos/vitae-test/profile/git/ref/heads/main 304', 'GET /repos/vitae-test/profile/git/blobs/<sha> 200'],
    );
    const again = await requestsOf(async () => {
      await repo.readFile('main', 'content/brief.md');
      await repo.listFiles('main', 'content');
    });
    assert.deepEqual(again, ['GET /repos/vitae-test/profile/git/ref/heads/main 304', 'GET /repos/vitae-test/profile/git/ref/heads/main 304']);
    // A whole tree's texts come in batches, not a call per file.
    const all = await requestsOf(() => open().filesAt(outside().head()));
    assert.ok(all.length <= 3, all.join('\n'));
  });
});

describe('the token', () => {
  it('appears in no log line, error message or error body, even when GitHub echoes it', async () => {
    // A proxy in front of GitHub that puts the credentials into its error text.
    emulator.route('GET', /\/commits\/echo-token$/, ({ send, req }) => send(500, { message: `upstream failed for ${req.headers.authorization}` }));
    await assert.rejects(open({ retryBaseMs: 1 }).readFile('main', 'content/brief.md', 'echo-token'), (e: unknown) => {
      assert.ok(e instanceof AppError);
      errors.push(e.message, JSON.stringify(e.toBody()));
      assert.match(e.message, /upstream failed for token \[token\]/, 'GitHub’s words are kept, the token in them is not');
      return true;
    });
    const echoed = open({ retryBaseMs: 1 });
    emulator.faults.serverErrors = { count: 4, match: /trees/ };
    await assert.rejects(echoed.listFiles('dev', 'content'), (e: unknown) => {
      errors.push((e as Error).message);
      return true;
    });
    emulator.faults.serverErrors.count = 0;
    const everything = [...logs, ...errors].join('\n');
    assert.ok(everything.length > 0);
    assert.ok(!everything.includes(emulator.token), 'the token leaked');
  });

  it('is not in an answer or a run record of the service', async () => {
    const service = await startServiceOn('github', { ADMIN_TOKEN: 'github-repo-test-admin-token', CONTENT_DIR: englishOnlyContent() });
    try {
      const auth = { Authorization: 'Bearer github-repo-test-admin-token', 'Content-Type': 'application/json' };
      const put = (path: string) =>
        service.get('/api/admin/file', {
          method: 'PUT',
          headers: auth,
          body: JSON.stringify({ path, content: skillFile('Token check'), message: 'token check' }),
        });
      const ok = await put('content/skills/token-check.md');
      assert.equal(ok.status, 200);
      service.emulator!.faults.readOnly = true;
      const refused = await put('content/skills/token-refused.md');
      assert.equal(refused.status, 502);
      const body = await refused.text();
      assert.match(body, /Contents: Read and write/);
      service.emulator!.faults.readOnly = false;
      await service.services.pipeline.idle();
      const runs = await (await service.get('/api/admin/deploys', { headers: auth })).text();
      assert.match(runs, /"status":"success"/);
      for (const text of [body, runs, await ok.text()]) assert.ok(!text.includes(service.emulator!.token));
    } finally {
      await service.stop();
    }
  });
});

describe('starting on github', () => {
  const start = (env: Record<string, string>) =>
    startTestService({
      REPO_BACKEND: 'github',
      GITHUB_REPOSITORY: emulator.repository,
      GITHUB_API_URL: emulator.url,
      GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET,
      ...env,
    });
  const stopsWith = (pattern: RegExp) => (e: unknown) => {
    assert.match((e as Error).message, pattern);
    assert.equal((e as Error).message.split('\n').length, 1, 'one line');
    assert.ok(!(e as Error).message.includes(emulator.token));
    return true;
  };

  it('stops with one line naming the variable: no token, a refused token, a repository out of reach, an unreachable API', async () => {
    await assert.rejects(start({}), (e: unknown) => e instanceof ConfigError && stopsWith(/^Invalid configuration: GITHUB_TOKEN is required/)(e));
    await assert.rejects(start({ GITHUB_TOKEN: 'ghp_wrong' }), stopsWith(/^GITHUB_TOKEN was refused .*401/));
    await assert.rejects(
      start({ GITHUB_TOKEN: emulator.token, GITHUB_REPOSITORY: 'someone/else' }),
      stopsWith(/^GITHUB_REPOSITORY someone\/else is not readable with GITHUB_TOKEN/),
    );
    await assert.rejects(
      start({ GITHUB_TOKEN: emulator.token, GITHUB_API_URL: 'http://127.0.0.1:9' }),
      stopsWith(/^GITHUB_API_URL http:\/\/127\.0\.0\.1:9 is unreachable/),
    );
  });

  it('stops naming a missing branch', async () => {
    const dev = (await emulator.head('dev'))!;
    await emulator.git.run(['update-ref', '-d', 'refs/heads/dev']);
    try {
      await assert.rejects(start({ GITHUB_TOKEN: emulator.token }), stopsWith(/has no branch "dev"/));
    } finally {
      await emulator.setRef('dev', dev);
    }
  });
});
