// The admin API over real HTTP on a real git repository: every operation, every error code, both ways
// of authenticating, path attacks, and concurrent writers — on both repository backends, `local` (a bare git
// repository under DATA_DIR) and `github` (the GitHub emulator over a bare git repository), as one suite.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { operations } from '../contract/index.ts';
import { CREDENTIAL_FAILURES } from '../server/credential-throttle.server.ts';
import { backends, startServiceOn, type BackendService } from '../../testing/backend-service.ts';

const TOKEN = 'admin-api-test-token-0123456789';
for (const backend of backends) {
  describe(`admin API on ${backend}`, () => {
    let service: BackendService;
    before(async () => {
      // TRUST_PROXY: the test of wrong tokens names an address of its own per attempt (X-Forwarded-For), so the
      // failure budget of credentials does not turn its 401s into 429s.
      service = await startServiceOn(backend, { ADMIN_TOKEN: TOKEN, TRUST_PROXY: '1' });
    });
    after(() => service.stop());

    const bearer = { Authorization: `Bearer ${TOKEN}` };
    const json = { 'Content-Type': 'application/json' };
    async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = bearer) {
      const res = await service.get(path, {
        method,
        headers: { ...headers, ...(body !== undefined ? json : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { res, status: res.status, body: text ? JSON.parse(text) : undefined, text };
    }
    const git = (...args: string[]) => spawnSync('git', args, { env: { ...process.env, GIT_DIR: service.gitDir }, encoding: 'utf8' });
    const head = (branch = 'main') => git('rev-parse', `refs/heads/${branch}`).stdout.trim();
    const skill = (name: string, text = 'Used every day.') => `---\nname: ${name}\ncategory: engineering\n---\n${text}\n`;

    describe('admin authentication', () => {
      it('answers 401 with WWW-Authenticate on every admin route without a token or with a wrong one', async () => {
        let i = 0;
        for (const op of operations.filter((o) => o.auth === 'admin')) {
          i++;
          for (const headers of [{}, { Authorization: `Bearer not-the-token-${i}`, 'X-Forwarded-For': `198.51.100.${i}` }] as Array<Record<string, string>>) {
            const { status, res, body, text } = await call(op.rest.method, op.rest.path, op.rest.method === 'GET' ? undefined : {}, headers);
            assert.equal(status, 401, `${op.rest.method} ${op.rest.path}`);
            assert.equal(body.code, 'unauthorized');
            assert.match(res.headers.get('www-authenticate')!, /^Bearer/);
            assert.ok(!text.includes(TOKEN));
          }
        }
        assert.equal((await call('GET', '/api/admin/whoami', undefined, {})).status, 401);
      });

      it('logs in with the token (JSON or form), authorises by cookie, checks the Origin on writes, and logs out', async () => {
        assert.equal((await call('POST', '/api/admin/login', { token: 'wrong' }, {})).status, 401);
        const login = await service.get('/api/admin/login', { method: 'POST', headers: json, body: JSON.stringify({ token: TOKEN }) });
        assert.equal(login.status, 204);
        const setCookie = login.headers.get('set-cookie')!;
        assert.match(setCookie, /HttpOnly/);
        assert.match(setCookie, /SameSite=Strict/);
        assert.match(setCookie, /Path=\//);
        const cookie = setCookie.split(';')[0]!;
        const who = await call('GET', '/api/admin/whoami', undefined, { Cookie: cookie });
        assert.deepEqual(who.body, { authenticated: true, via: 'session', id: 'owner', name: 'Owner', email: '', role: 'publisher' });
        assert.deepEqual((await call('GET', '/api/admin/whoami')).body, {
          authenticated: true,
          via: 'bearer',
          id: 'owner',
          name: 'Owner',
          email: '',
          role: 'publisher',
        });

        const write = (headers: Record<string, string>) =>
          call(
            'PUT',
            '/api/admin/file',
            { path: 'content/skills/cookie-made.md', content: skill('Cookie made'), message: 'From the console', branch: 'dev' },
            headers,
          );
        assert.equal((await write({ Cookie: cookie })).status, 403, 'no Origin: refused (CSRF)');
        assert.equal((await write({ Cookie: cookie, Origin: 'https://evil.example' })).status, 403);
        assert.equal((await write({ Cookie: cookie, Origin: 'http://vitae.test' })).status, 200);

        const form = await service.get('/api/admin/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
          body: `token=${encodeURIComponent(TOKEN)}`,
        });
        assert.equal(form.status, 204);
        const rotated = form.headers.get('set-cookie')!.split(';')[0]!;
        assert.notEqual(rotated, cookie, 'a login rotates the session');
        assert.equal((await call('GET', '/api/admin/whoami', undefined, { Cookie: cookie })).status, 401, 'the old session is gone');

        const logout = await service.get('/api/admin/logout', { method: 'POST', headers: { Cookie: rotated, Origin: 'http://vitae.test' } });
        assert.equal(logout.status, 204);
        assert.match(logout.headers.get('set-cookie')!, /Max-Age=0/);
        assert.equal((await call('GET', '/api/admin/whoami', undefined, { Cookie: rotated })).status, 401, 'logout revokes the session');
      });

      it('throttles failed logins per IP with 429 and Retry-After', async () => {
        const other = await startServiceOn(backend, { ADMIN_TOKEN: TOKEN });
        try {
          const attempt = (token: string) => other.get('/api/admin/login', { method: 'POST', headers: json, body: JSON.stringify({ token }) });
          for (let i = 0; i < CREDENTIAL_FAILURES; i++) assert.equal((await attempt(`wrong-${i}`)).status, 401);
          const limited = await attempt(TOKEN);
          assert.equal(limited.status, 429, 'even the right token waits once the budget is spent');
          assert.ok(Number(limited.headers.get('retry-after')) > 0);
        } finally {
          await other.stop();
        }
      });
    });

    describe('reading', () => {
      it('describes the schema from the zod schemas', async () => {
        const { status, body } = await call('GET', '/api/admin/schema');
        assert.equal(status, 200);
        const entry = body.fileKinds.find((k: any) => k.kind === 'entry');
        assert.ok(entry.fields.find((f: any) => f.name === 'tags').allowed.includes('hospitality'));
        assert.equal(entry.fields.find((f: any) => f.name === 'title').required, true);
        assert.equal(body.lenses.length, 11);
        assert.ok(body.conventions.some((c: string) => /source/.test(c)));
        assert.ok(body.skills.includes('python'));
      });

      it('lists files with path, size and sha, filtered by folder and branch', async () => {
        const { body } = await call('GET', '/api/admin/files?dir=content/lenses');
        assert.equal(body.files.length, 11);
        for (const f of body.files) assert.ok(f.path.startsWith('content/lenses/') && f.size > 0 && /^[0-9a-f]{40}$/.test(f.sha));
        assert.equal((await call('GET', '/api/admin/files?branch=dev')).body.branch, 'dev');
      });

      it('reads a file by path or by slug, with its sha', async () => {
        const byPath = (await call('GET', '/api/admin/file?path=content/brief.md')).body;
        assert.match(byPath.content, /^---\n/);
        assert.equal(byPath.sha, git('rev-parse', 'main:content/brief.md').stdout.trim());
        const bySlug = (await call('GET', '/api/admin/file?slug=head-of-ai')).body;
        assert.equal(bySlug.path, 'content/lenses/head-of-ai.md');
        assert.equal((await call('GET', '/api/admin/file?slug=nobody')).status, 404);
        assert.equal((await call('GET', '/api/admin/file?path=content/nothing.md')).status, 404);
        assert.equal((await call('GET', '/api/admin/file')).status, 400);
      });
    });

    describe('writing', () => {
      it('validates without writing: problems with path, pointer and line', async () => {
        const before = head();
        const ok = await call('POST', '/api/admin/validate', { path: 'content/skills/rust.md', content: skill('Rust') });
        assert.deepEqual(ok.body, { valid: true, problems: [] });
        const bad = await call('POST', '/api/admin/validate', { path: 'content/skills/rust.md', content: '---\nname: Rust\ncategory: cooking\n---\nx\n' });
        assert.equal(bad.body.valid, false);
        assert.deepEqual(bad.body.problems[0], { path: 'content/skills/rust.md', pointer: '/category', line: 3, message: bad.body.problems[0].message });
        assert.equal(head(), before);
      });

      it('writes one commit, served after the pipeline runs, with 422 for invalid content and nothing written', async () => {
        const before = head();
        const invalid = await call('PUT', '/api/admin/file', { path: 'content/skills/python.md', content: '---\nname: Python\n---\n', message: 'Break it' });
        assert.equal(invalid.status, 422);
        assert.equal(invalid.body.code, 'invalid');
        assert.ok(invalid.body.errors.length >= 1);
        assert.equal(head(), before, 'nothing was written');

        const broken = await call('DELETE', '/api/admin/file', { path: 'content/skills/python.md', message: 'Remove a used skill' });
        assert.equal(broken.status, 422, 'deleting a skill that entries name breaks references');
        assert.ok(broken.body.errors.some((p: any) => /skill "python" does not exist/.test(p.message)));

        const write = await call('PUT', '/api/admin/file', { path: 'content/skills/rust.md', content: skill('Rust'), message: 'Add Rust' });
        assert.equal(write.status, 200);
        assert.equal(write.body.branch, 'main');
        assert.equal(write.body.changed, true);
        assert.equal(write.body.commit.sha, head());
        assert.equal(git('rev-parse', `${head()}^`).stdout.trim(), before, 'exactly one commit');
        assert.equal(git('log', '-1', '--format=%s').stdout.trim(), 'Add Rust');

        const same = await call('PUT', '/api/admin/file', { path: 'content/skills/rust.md', content: skill('Rust'), message: 'Again' });
        assert.equal(same.body.changed, false, 'an identical write makes no commit');
        assert.equal(head(), write.body.commit.sha);

        await service.services.pipeline.idle();
        const runs = (await call('GET', '/api/admin/deploys?branch=main')).body.runs;
        assert.equal(runs[0].commit, write.body.commit.sha);
        assert.equal(runs[0].status, 'success');
        assert.deepEqual(
          runs[0].stages.map((s: any) => `${s.name}:${s.status}`),
          ['translate:skipped', 'build:success', 'deploy:success'],
        );
        assert.match(runs[0].stages[0].note, /no model provider/);
        assert.equal(runs[0].siteUrl, 'http://vitae.test');
        assert.ok(!JSON.stringify(runs).includes(TOKEN));
        const health = await (await service.get('/api/health')).json();
        assert.equal(health.content.commit, write.body.commit.sha, 'the new build is live');
      });

      it('deletes through query parameters or a JSON body', async () => {
        await call('PUT', '/api/admin/file', { path: 'content/skills/go.md', content: skill('Go'), message: 'Add Go' });
        await call('PUT', '/api/admin/file', { path: 'content/skills/zig.md', content: skill('Zig'), message: 'Add Zig' });
        const viaQuery = await call('DELETE', '/api/admin/file?path=content/skills/go.md&message=Drop%20Go');
        assert.equal(viaQuery.status, 200);
        assert.deepEqual(viaQuery.body.files, [{ path: 'content/skills/go.md', sha: null }]);
        const viaBody = await call('DELETE', '/api/admin/file', { path: 'content/skills/zig.md', message: 'Drop Zig' });
        assert.equal(viaBody.status, 200);
        assert.equal((await call('DELETE', '/api/admin/file', { path: 'content/skills/zig.md', message: 'Again' })).status, 404);
      });

      it('commits several changes, deletes included, as one commit', async () => {
        const before = head();
        const res = await call('POST', '/api/admin/changes', {
          message: 'Two skills at once',
          changes: [
            { path: 'content/skills/elixir.md', content: skill('Elixir') },
            { path: 'content/skills/haskell.md', content: skill('Haskell') },
            { path: 'content/skills/rust.md', delete: true },
          ],
        });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.files.length, 3);
        assert.equal(git('rev-parse', `${head()}^`).stdout.trim(), before);
        assert.equal(git('cat-file', '-e', `${head()}:content/skills/rust.md`).status, 128, 'rust.md is gone');
        assert.equal((await call('POST', '/api/admin/changes', { message: 'x', changes: [] })).status, 400);
      });

      it('answers 409 when the base sha is stale, and writes nothing', async () => {
        const file = (await call('GET', '/api/admin/file?path=content/skills/elixir.md')).body;
        assert.equal(
          (await call('PUT', '/api/admin/file', { path: file.path, content: skill('Elixir', 'First.'), message: 'One', sha: file.sha })).status,
          200,
        );
        const before = head();
        const stale = await call('PUT', '/api/admin/file', { path: file.path, content: skill('Elixir', 'Second.'), message: 'Two', sha: file.sha });
        assert.equal(stale.status, 409);
        assert.equal(stale.body.code, 'repo_error');
        assert.equal(head(), before);
        // The file's sha now, in full (a retry's base; a short one is refused as not a sha), in the words and the details.
        const now = (await call('GET', `/api/admin/file?path=${file.path}`)).body.sha as string;
        assert.match(now, /^[0-9a-f]{40}$/);
        assert.equal(stale.body.currentSha, now);
        assert.ok(stale.body.message.includes(`it is now ${now}`), stale.body.message);
      });
    });

    describe('path rules', () => {
      it('refuses every path outside the writable content files with 403 and leaves the repository unchanged', async () => {
        const before = head();
        const attacks = [
          '../package.json',
          'content/../package.json',
          '%2e%2e/content/x.md',
          'content/%2e%2e/x.md',
          '/etc/passwd.md',
          'content\\skills\\x.md',
          'content/skills/x\u0000.md',
          '.git/config',
          'content/.hidden.md',
          'content/skills/.x.md',
          'content/skills/x.txt',
          'content/skills/x.sh',
          'package.json',
          'app/root.tsx',
          'content//x.md',
          'C:/content/x.md',
        ];
        for (const path of attacks) {
          const res = await call('PUT', '/api/admin/file', { path, content: skill('X'), message: 'attack' });
          assert.equal(res.status, 403, `${JSON.stringify(path)} → ${res.status} ${res.text}`);
          assert.equal(res.body.code, 'forbidden_path');
          assert.equal((await call('DELETE', '/api/admin/file', { path, message: 'attack' })).status, 403);
        }
        assert.equal(head(), before);
      });

      it('refuses to write through a symlink committed into the repository', async () => {
        // Someone pushes a symlink under content/ from outside the service.
        const env = { ...process.env, GIT_DIR: service.gitDir, GIT_INDEX_FILE: join(service.dataDir, 'evil-index') };
        const run = (...args: string[]) => spawnSync('git', args, { env, encoding: 'utf8', input: '../../package.json' });
        const blob = run('hash-object', '-w', '--stdin').stdout.trim();
        run('read-tree', 'refs/heads/dev');
        spawnSync('git', ['update-index', '--add', '--cacheinfo', `120000,${blob},content/skills/link.md`], { env });
        const tree = run('write-tree').stdout.trim();
        const commit = spawnSync('git', ['commit-tree', tree, '-p', 'refs/heads/dev', '-m', 'symlink'], { env, encoding: 'utf8' }).stdout.trim();
        spawnSync('git', ['update-ref', 'refs/heads/dev', commit], { env });
        const before = head('dev');
        const res = await call('PUT', '/api/admin/file', {
          path: 'content/skills/link.md',
          content: skill('Link'),
          message: 'through the link',
          branch: 'dev',
        });
        assert.equal(res.status, 403);
        assert.equal(head('dev'), before);
        const invalid = await call('PUT', '/api/admin/file', { path: 'content/skills/other.md', content: skill('Other'), message: 'x', branch: 'dev' });
        assert.equal(invalid.status, 422, 'a tree holding a symlink is not valid content');
        const removed = await call('DELETE', '/api/admin/file', { path: 'content/skills/link.md', message: 'Remove the symlink', branch: 'dev' });
        assert.equal(removed.status, 200, 'deleting the link itself is allowed');
        await service.services.pipeline.idle();
      });
    });

    describe('concurrency', () => {
      it('50 concurrent writers to different files make 50 commits, all present', async () => {
        const before = head('main');
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            call('PUT', '/api/admin/file', { path: `content/skills/parallel-${i}.md`, content: skill(`Parallel ${i}`), message: `Writer ${i}` }),
          ),
        );
        assert.deepEqual(
          results.map((r) => r.status),
          Array(50).fill(200),
        );
        assert.equal(git('rev-list', '--count', `${before}..refs/heads/main`).stdout.trim(), '50');
        const files = git('ls-tree', '--name-only', 'refs/heads/main', 'content/skills/').stdout;
        for (let i = 0; i < 50; i++) assert.ok(files.includes(`content/skills/parallel-${i}.md`), `parallel-${i}`);
      });

      it('20 writers to one file with the same base sha: exactly one wins, the rest get 409', async () => {
        const file = (await call('GET', '/api/admin/file?path=content/skills/parallel-0.md')).body;
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            call('PUT', '/api/admin/file', { path: file.path, content: skill('Parallel 0', `Version ${i}.`), message: `Racer ${i}`, sha: file.sha }),
          ),
        );
        const statuses = results.map((r) => r.status).sort();
        assert.equal(statuses.filter((s) => s === 200).length, 1);
        assert.equal(statuses.filter((s) => s === 409).length, 19);
        await service.services.pipeline.idle();
        const fsck = git('fsck', '--strict');
        assert.equal(fsck.status, 0, fsck.stderr);
      });
    });

    describe('dev preview and promote', () => {
      it('refuses a change with a query parameter it does not take (?dry=1) with 400 naming it, and changes nothing', async () => {
        assert.equal(
          (await call('PUT', '/api/admin/file', { path: 'content/skills/dry.md', content: skill('Dry'), message: 'Dry', branch: 'dev' })).status,
          200,
        );
        const before = { main: head('main'), dev: head('dev') };
        const promote = await call('POST', '/api/admin/promote?dry=1', { message: 'x' });
        assert.equal(promote.status, 400, promote.text);
        assert.equal(promote.body.code, 'bad_request');
        assert.match(promote.body.message, /"dry"/);
        assert.match(promote.body.message, /takes no query parameters/);
        assert.ok(promote.body.message.includes('GET /api/admin/compare?base=main&head=dev'), promote.body.message);
        assert.ok(promote.body.message.includes('vitae admin promote --dry-run'), promote.body.message);
        assert.deepEqual(promote.body.errors, [{ pointer: '/dry', message: 'unknown query parameter "dry"' }]);
        const put = await call('PUT', '/api/admin/file?dryRun=true', { path: 'content/skills/dry.md', content: skill('Wet'), message: 'Wet', branch: 'dev' });
        assert.equal(put.status, 400, put.text);
        assert.ok(put.body.message.includes('POST /api/admin/validate with the same body'), put.body.message);
        // A delete reads the query: it names what it accepts.
        const del = await call('DELETE', '/api/admin/file?path=content/skills/dry.md&message=Drop&branch=dev&utm_source=x');
        assert.equal(del.status, 400, del.text);
        assert.match(del.body.message, /"utm_source".*accepts only "path", "message", "branch", "sha"/);
        assert.deepEqual({ main: head('main'), dev: head('dev') }, before, 'nothing was promoted, written or deleted');
        // Reads are not changes: a public GET still ignores what it does not know (tracking parameters).
        assert.equal((await service.get('/api/v1/entries/concierge-copilot?utm_source=newsletter')).status, 200);
      });

      it('serves a write to dev on the preview only, until promote publishes it', async () => {
        const path = 'content/skills/preview-only.md';
        assert.equal((await call('PUT', '/api/admin/file', { path, content: skill('Preview only'), message: 'Preview', branch: 'dev' })).status, 200);
        const entry = (await call('GET', '/api/admin/file?slug=concierge-copilot&branch=dev')).body;
        const retitled = entry.content.replace(/^title: .*$/m, 'title: "Concierge Copilot (preview)"');
        assert.equal(
          (await call('PUT', '/api/admin/file', { path: entry.path, content: retitled, message: 'Retitle', branch: 'dev', sha: entry.sha })).status,
          200,
        );
        await service.services.pipeline.idle();
        const onDev = await (await fetch(`${service.devUrl}/api/v1/entries/concierge-copilot`)).json();
        const onMain = await (await service.get('/api/v1/entries/concierge-copilot')).json();
        assert.equal(onDev.title, 'Concierge Copilot (preview)');
        assert.notEqual(onMain.title, 'Concierge Copilot (preview)');

        // main moved since dev branched (the writes above), so this is a merge commit.
        const promoted = await call('POST', '/api/admin/promote', { message: 'Publish the preview' });
        assert.equal(promoted.status, 200, promoted.text);
        assert.equal(promoted.body.merged, true);
        assert.equal(promoted.body.fastForward, false);
        assert.equal(git('rev-list', '--parents', '-n', '1', head('main')).stdout.trim().split(' ').length, 3, 'a merge commit');
        await service.services.pipeline.idle();
        assert.equal((await (await service.get('/api/v1/entries/concierge-copilot')).json()).title, 'Concierge Copilot (preview)');

        const again = await call('POST', '/api/admin/promote', {});
        assert.equal(again.body.merged, false, 'nothing to merge');
      });

      it('fast-forwards when main has not moved, and refuses a conflict with 409 naming the paths', async () => {
        // Bring dev level with main, then change dev only: a fast-forward.
        const mainHead = head('main');
        spawnSync('git', ['update-ref', 'refs/heads/dev', mainHead], { env: { ...process.env, GIT_DIR: service.gitDir } });
        await call('PUT', '/api/admin/file', { path: 'content/skills/ff.md', content: skill('Fast forward'), message: 'FF', branch: 'dev' });
        const ff = await call('POST', '/api/admin/promote', {});
        assert.equal(ff.body.fastForward, true);
        assert.equal(head('main'), head('dev'));

        await call('PUT', '/api/admin/file', { path: 'content/skills/ff.md', content: skill('Fast forward', 'On dev.'), message: 'dev side', branch: 'dev' });
        await call('PUT', '/api/admin/file', { path: 'content/skills/ff.md', content: skill('Fast forward', 'On main.'), message: 'main side' });
        const before = head('main');
        const conflict = await call('POST', '/api/admin/promote', {});
        assert.equal(conflict.status, 409);
        assert.match(conflict.body.message, /content\/skills\/ff\.md/);
        assert.deepEqual(conflict.body.conflicts, ['content/skills/ff.md']);
        assert.equal(head('main'), before, 'nothing changed');
        await service.services.pipeline.idle();
      });
    });

    describe('a failed publish run', () => {
      it('keeps the previous build live and records why', async () => {
        await service.services.pipeline.idle();
        const live = (await (await service.get('/api/health')).json()).content.commit;
        // Invalid content pushed from outside the service, bypassing validation.
        const env = { ...process.env, GIT_DIR: service.gitDir, GIT_INDEX_FILE: join(service.dataDir, 'push-index') };
        const blob = spawnSync('git', ['hash-object', '-w', '--stdin'], {
          env,
          input: '---\nname: Broken\ncategory: cooking\n---\nx\n',
          encoding: 'utf8',
        }).stdout.trim();
        spawnSync('git', ['read-tree', 'refs/heads/main'], { env });
        spawnSync('git', ['update-index', '--add', '--cacheinfo', `100644,${blob},content/skills/broken.md`], { env });
        const tree = spawnSync('git', ['write-tree'], { env, encoding: 'utf8' }).stdout.trim();
        const commit = spawnSync('git', ['commit-tree', tree, '-p', 'refs/heads/main', '-m', 'push from outside'], { env, encoding: 'utf8' }).stdout.trim();
        spawnSync('git', ['update-ref', 'refs/heads/main', commit], { env });
        let run: any;
        for (let i = 0; i < 100 && !run; i++) {
          await new Promise((r) => setTimeout(r, 100));
          run = (await call('GET', '/api/admin/deploys')).body.runs.find((r: any) => r.commit === commit && r.status === 'failure');
        }
        assert.ok(run, 'the watcher picked up the push and the run failed');
        assert.match(run.error, /build failed: .*category/);
        assert.equal((await (await service.get('/api/health')).json()).content.commit, live, 'the previous build is still live');
      });
    });
  });
}
