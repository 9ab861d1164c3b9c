// The admin commands through the program (in process) against a real service with a real git repository:
// reads, validation from a file and from stdin, writes that follow their publish run with --wait, promote.
// The real `vitae` process checks what only it can: a file relative to its working directory, stdin as a pipe.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { operationsByName } from '../operations/contract/index.ts';
import { startTestService, type TestService } from '../testing/service.ts';
import { runVitae, runVitaeInProcess } from './run-vitae.ts';

const TOKEN = 'cli-admin-token-0123456789abcdef';
const ENTRY = 'content/corpus/projects/concierge-copilot.md';
const SKILL = 'content/skills/zz-cli-skill.md';
let service: TestService;
let scratch: string;
before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN });
  scratch = await mkdtemp(join(tmpdir(), 'vitae-cli-'));
});
after(async () => {
  await service.stop();
  await rm(scratch, { recursive: true, force: true });
});

const env = () => ({ SITE_URL: service.url, SITE_ADMIN_TOKEN: TOKEN });
const admin = (args: string[], input?: string) => runVitaeInProcess(['admin', ...args], { env: env(), input });
const api = async (path: string, init: RequestInit = {}) => {
  const res = await service.get(path, { ...init, headers: { Accept: 'application/json', Authorization: `Bearer ${TOKEN}`, ...(init.headers ?? {}) } });
  assert.equal(res.status, 200, path);
  return res.json();
};
const ok = (run: { code: number | null; stderr: string }) => assert.equal(run.code, 0, run.stderr);

/** The progress lines of `--wait`: every stage on stderr, then the live address. */
function assertFollowedToLive(stderr: string, branch: string) {
  assert.match(stderr, /Waiting for the publish run of [0-9a-f]{7} on /);
  assert.match(stderr, /translate\s+(success|skipped)/);
  assert.match(stderr, /build\s+success/);
  assert.match(stderr, /deploy\s+success/);
  assert.match(stderr, new RegExp(`Live on ${branch}: http://(dev\\.)?vitae\\.test`));
}

describe('admin commands', () => {
  it('vitae admin schema: --json is the API body; the human form lists file kinds and vocabularies', async () => {
    const json = await admin(['schema', '--json']);
    ok(json);
    assert.deepEqual(JSON.parse(json.stdout), await api('/api/admin/schema'));
    const human = await admin(['schema']);
    assert.match(human.stdout, /^entry\s+content\/corpus\//m);
    assert.match(human.stdout, /^tags: it, engineering/m);
  });

  it('vitae admin ls [dir]: a table of path, size, sha and translation state; --json is the API body', async () => {
    const json = await admin(['ls', 'content/corpus/projects', '--json']);
    ok(json);
    const body = await api('/api/admin/files?dir=content/corpus/projects');
    assert.deepEqual(JSON.parse(json.stdout), body);
    const human = await admin(['ls', 'content/corpus/projects']);
    assert.match(human.stdout, /^PATH\s+SIZE\s+SHA\s+TRANSLATIONS$/m);
    assert.match(human.stdout, new RegExp(`^${ENTRY}\\s+\\d+\\s+[0-9a-f]{12}\\s+es stale$`, 'm'), 'the stale translation is named');
    assert.match(human.stderr, new RegExp(`${body.files.length} files on main`));
  });

  it('vitae admin get <slug|path>: the raw source on stdout (pipe-friendly), the sha on stderr', async () => {
    const file = await api(`/api/admin/file?path=${ENTRY}`);
    for (const target of ['concierge-copilot', ENTRY]) {
      const run = await admin(['get', target]);
      ok(run);
      assert.equal(run.stdout, file.content, 'byte for byte');
      assert.ok(run.stderr.includes(file.sha));
    }
    const json = await admin(['get', 'concierge-copilot', '--branch', 'dev', '--json']);
    assert.deepEqual(JSON.parse(json.stdout), await api('/api/admin/file?slug=concierge-copilot&branch=dev'));
  });

  it('vitae admin validate <path> <file>: reads a file or - for stdin; problems as path:line: message, exit 6', async () => {
    const { content } = await api(`/api/admin/file?path=${ENTRY}`);
    await writeFile(join(scratch, 'entry.md'), content);
    const valid = await admin(['validate', ENTRY, join(scratch, 'entry.md')]);
    ok(valid);
    assert.match(valid.stdout, /concierge-copilot\.md is valid/);

    const invalid = await admin(['validate', ENTRY, '-'], content.replace(/^tags:.*$/m, 'tags: [cooking]'));
    assert.equal(invalid.code, 6);
    assert.match(invalid.stdout, /^content\/corpus\/projects\/concierge-copilot\.md:\d+: tags\.0 must be one of: it, engineering/m);
    const json = await admin(['validate', ENTRY, '-', '--json'], content.replace(/^tags:.*$/m, 'tags: [cooking]'));
    assert.equal(json.code, 6);
    assert.equal(JSON.parse(json.stdout).valid, false);
  });

  it('the real bin: validate reads a file relative to its working directory, and - from a pipe', async () => {
    const { content } = await api(`/api/admin/file?path=${ENTRY}`);
    await writeFile(join(scratch, 'entry.md'), content);
    const valid = await runVitae(['admin', 'validate', ENTRY, 'entry.md'], { env: env(), cwd: scratch });
    ok(valid);
    assert.match(valid.stdout, /concierge-copilot\.md is valid/);

    const invalid = await runVitae(['admin', 'validate', ENTRY, '-'], { env: env(), cwd: scratch, input: content.replace(/^tags:.*$/m, 'tags: [cooking]') });
    assert.equal(invalid.code, 6);
    assert.match(invalid.stdout, /^content\/corpus\/projects\/concierge-copilot\.md:\d+: tags\.0 must be one of: it, engineering/m);
  });

  it('vitae admin put <path> - -m … --wait: commits, follows translate → build → deploy, and the change is live', async () => {
    const { content, sha } = await api(`/api/admin/file?path=${ENTRY}`);
    const edited = content.replace(/^title: .*$/m, 'title: "Concierge Copilot, edited from the CLI"');
    const run = await admin(['put', ENTRY, '-', '-m', 'Retitle from the CLI', '--sha', sha, '--wait', '--yes'], edited);
    ok(run);
    assert.match(run.stdout, /^Committed [0-9a-f]{7} to main: Retitle from the CLI$/m);
    assert.match(run.stdout, /written\s+content\/corpus\/projects\/concierge-copilot\.md/);
    assertFollowedToLive(run.stderr, 'main');
    const live = await (await service.get('/api/v1/entries/concierge-copilot')).json();
    assert.equal((live as { title: string }).title, 'Concierge Copilot, edited from the CLI');
  });

  it('vitae admin deploys: the runs as a table; --json is the API body', async () => {
    const json = await admin(['deploys', '--json']);
    ok(json);
    const body = await api('/api/admin/deploys');
    assert.deepEqual(JSON.parse(json.stdout), body);
    const human = await admin(['deploys', '--branch', 'main', '--limit', '5']);
    // BY, when a run names who made its commit (one committed through the service does).
    const shown = await api('/api/admin/deploys?branch=main&limit=5');
    const named = shown.runs.some((run: { by?: string }) => run.by);
    assert.match(human.stdout, named ? /^RUN\s+BRANCH\s+COMMIT\s+STATUS\s+STAGES\s+CREATED\s+BY$/m : /^RUN\s+BRANCH\s+COMMIT\s+STATUS\s+STAGES\s+CREATED$/m);
    assert.ok(human.stdout.includes(body.runs[0].commit.slice(0, 7)));
    assert.match(human.stdout, /success\s+translate. build✓ deploy✓/);
  });

  it('vitae admin commit <changes.json|-> on dev, then promote --wait publishes it on main', async () => {
    const skill = (await api('/api/admin/file?path=content/skills/typescript.md')).content.replace(/^name: .*$/m, 'name: CLI test skill');
    const changes = JSON.stringify([{ path: SKILL, content: skill }]);
    const commit = await admin(['commit', '-', '-m', 'Add a skill on dev', '--branch', 'dev', '--wait', '--json', '--yes'], changes);
    ok(commit);
    const result = operationsByName.get('admin_commit_changes')!.output.parse(JSON.parse(commit.stdout)) as { branch: string; files: Array<{ path: string }> };
    assert.equal(result.branch, 'dev');
    assert.deepEqual(
      result.files.map((f) => f.path),
      [SKILL],
    );
    assertFollowedToLive(commit.stderr, 'dev');

    const promote = await admin(['promote', '-m', 'Publish the dev preview', '--wait', '-y']);
    ok(promote);
    assert.match(promote.stdout, /^Promoted dev into main/m);
    assertFollowedToLive(promote.stderr, 'main');
    assert.equal((await admin(['get', SKILL])).stdout, skill);

    const again = await admin(['promote', '--wait', '--yes']);
    ok(again);
    assert.match(again.stdout, /Nothing to promote/);
    assert.match(again.stderr, /Nothing to publish/);
  });

  it('vitae admin rm <path> -m … --wait: deletes in one commit; the file is gone', async () => {
    const run = await admin(['rm', SKILL, '-m', 'Remove the test skill', '--wait', '--yes']);
    ok(run);
    assert.match(run.stdout, /deleted\s+content\/skills\/zz-cli-skill\.md/);
    assertFollowedToLive(run.stderr, 'main');
    assert.equal((await admin(['get', SKILL])).code, 3);
  });

  it('vitae admin ai-edit and admin translate without a model: exit 9 saying what to configure', async () => {
    for (const args of [
      ['ai-edit', 'concierge-copilot', 'Shorten the summary'],
      ['translate', 'concierge-copilot', '--locales', '["fr"]'],
    ]) {
      const run = await admin(args);
      assert.equal(run.code, 9, run.stderr);
      assert.match(run.stderr, /OPENAI_API_KEY/);
    }
  });

  it('vitae admin check <changes>: what a commit of the set would touch, or its problems with exit 6; nothing written', async () => {
    const head = (await api('/api/health')).content.commit;
    const good = join(scratch, 'good-changes.json');
    await writeFile(good, JSON.stringify([{ path: 'content/skills/zz-checked.md', content: '---\nname: Checked\ncategory: engineering\n---\nx\n' }]));
    const valid = await admin(['check', good]);
    ok(valid);
    assert.match(valid.stdout, /the change set is valid/);
    assert.match(valid.stdout, /A content\/skills\/zz-checked\.md/);
    const bad = join(scratch, 'bad-changes.json');
    await writeFile(bad, JSON.stringify([{ path: 'content/skills/python.md', delete: true }]));
    const invalid = await admin(['check', bad, '--branch', 'dev']);
    assert.equal(invalid.code, 6, invalid.stderr);
    assert.match(invalid.stdout, /skill "python" does not exist/);
    assert.equal((await api('/api/health')).content.commit, head);
  });
});
