// Commands that change the content ask first: without a terminal they refuse unless given --yes, on a terminal
// they ask y/N, and --dry-run shows the change (diff, validation, what promote would merge) while the
// repository stays exactly as it was: same branch heads, same files, no publish run.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { startTestService, type TestService } from '../testing/service.ts';
import { runVitae, runVitaeInProcess } from './run-vitae.ts';

const TOKEN = 'cli-confirm-token-0123456789abcdef';
const ENTRY = 'content/corpus/projects/concierge-copilot.md';
const SKILL = 'content/skills/typescript.md';
/** A translation: deleting it leaves a valid tree. */
const TRANSLATION = 'content/i18n/fr/skills/typescript.md';
let service: TestService;
before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN });
});
after(() => service.stop());

const env = () => ({ SITE_URL: service.url, SITE_ADMIN_TOKEN: TOKEN });
const api = async (path: string, init: RequestInit = {}) => {
  const res = await service.get(path, {
    ...init,
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}`, ...(init.headers ?? {}) },
  });
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
  return res.json();
};

/** Everything a write would change: both branch heads, the files on them, and the publish runs. */
async function repositoryState() {
  const state: Record<string, unknown> = {};
  for (const branch of ['main', 'dev']) {
    state[`${branch} head`] = (await api(`/api/admin/history?branch=${branch}&limit=1`)).commits[0].sha;
    state[`${branch} files`] = (await api(`/api/admin/files?branch=${branch}`)).files.map((f: { path: string; sha: string }) => `${f.path} ${f.sha}`);
    state[`${branch} runs`] = (await api(`/api/admin/deploys?branch=${branch}&limit=100`)).runs.length;
  }
  return state;
}

describe('changes ask first', () => {
  it('without a terminal and without --yes: refused with exit 2 naming --yes, and nothing changes (the real process)', async () => {
    const before = await repositoryState();
    for (const args of [
      ['admin', 'rm', SKILL, '-m', 'Remove it'],
      ['admin', 'promote'],
    ]) {
      const run = await runVitae(args, { env: env() });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /no terminal to confirm it on\. Add --yes/);
    }
    const { content } = await api(`/api/admin/file?path=${SKILL}`);
    const put = await runVitae(['admin', 'put', SKILL, '-', '-m', 'Edit'], { env: env(), input: content + '\nMore.\n' });
    assert.equal(put.code, 2, 'stdin carried the file, so nobody can answer: refused');
    assert.match(put.stderr, /--yes/);
    assert.deepEqual(await repositoryState(), before);
  });

  it('--dry-run of put: the diff and the validation, exit 0, and the repository unchanged', async () => {
    const before = await repositoryState();
    const { content } = await api(`/api/admin/file?path=${ENTRY}`);
    const edited = content.replace(/^title: .*$/m, 'title: "Concierge Copilot, dry run"');
    const run = await runVitae(['admin', 'put', ENTRY, '-', '-m', 'Retitle', '--dry-run'], { env: env(), input: edited });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Dry run of vitae admin put: nothing was written/);
    assert.match(run.stdout, new RegExp(`replace\\s+${ENTRY}`));
    assert.match(run.stdout, /✓ valid/);
    assert.match(run.stdout, /^\+title: "Concierge Copilot, dry run"$/m);
    assert.match(run.stdout, /^-title: /m);
    assert.deepEqual(await repositoryState(), before);
    assert.equal((await api(`/api/admin/file?path=${ENTRY}`)).content, content);
  });

  it('--dry-run reports what the real call would refuse: problems (exit 6) and a stale --sha (exit 7)', async () => {
    const before = await repositoryState();
    const { content } = await api(`/api/admin/file?path=${ENTRY}`);
    const invalid = await runVitaeInProcess(['admin', 'put', ENTRY, '-', '-m', 'Break', '--dry-run'], {
      env: env(),
      input: content.replace(/^tags:.*$/m, 'tags: [cooking]'),
    });
    assert.equal(invalid.code, 6, invalid.stderr);
    assert.match(invalid.stdout, /tags\.0 must be one of/);
    const stale = await runVitaeInProcess(['admin', 'put', ENTRY, '-', '-m', 'Stale', '--sha', 'f'.repeat(40), '--dry-run'], {
      env: env(),
      input: content + '\nMore.\n',
    });
    assert.equal(stale.code, 7, stale.stderr);
    assert.match(stale.stdout, /refused \(409\): .* changed since ffffffffffff/);
    const json = await runVitaeInProcess(['admin', 'rm', TRANSLATION, '-m', 'Remove', '--dry-run', '--json'], { env: env() });
    assert.equal(json.code, 0, json.stderr);
    const plan = JSON.parse(json.stdout);
    assert.equal(plan.dryRun, true);
    assert.deepEqual(
      plan.steps.map((s: { action: string; path: string; problems: unknown[] }) => [s.action, s.path, s.problems]),
      [['delete', TRANSLATION, []]],
    );
    assert.deepEqual(await repositoryState(), before);
  });

  it('rm --dry-run validates the delete as the real rm does: entries still using a skill are problems (exit 6)', async () => {
    const before = await repositoryState();
    const dry = await runVitaeInProcess(['admin', 'rm', SKILL, '-m', 'Drop', '--branch', 'dev', '--dry-run', '--no-color'], { env: env() });
    assert.equal(dry.code, 6, dry.stdout + dry.stderr);
    assert.match(dry.stdout, new RegExp(`delete\\s+${SKILL}`));
    assert.match(dry.stdout, /content\/corpus\/projects\/concierge-copilot\.md:\d+: skill "typescript" does not exist/);
    assert.match(dry.stdout, /delete\s+content\/i18n\/fr\/skills\/typescript\.md\s+\(its translation\)/);
    assert.doesNotMatch(dry.stdout, /✓ valid/);
    const json = await runVitaeInProcess(['admin', 'rm', SKILL, '-m', 'Drop', '--branch', 'dev', '--dry-run', '--json'], { env: env() });
    assert.equal(json.code, 6, json.stderr);
    const [step] = JSON.parse(json.stdout).steps;
    assert.ok(
      step.problems.some((p: { message: string }) => /skill "typescript" does not exist/.test(p.message)),
      json.stdout,
    );
    const real = await runVitaeInProcess(['admin', 'rm', SKILL, '-m', 'Drop', '--branch', 'dev', '--yes'], { env: env() });
    assert.equal(real.code, 6, 'the real call is refused with the exit code the dry run gave');
    assert.deepEqual(await repositoryState(), before);
  });

  it('commit --dry-run: each change with its action, a new file validated on its own, and nothing written', async () => {
    const before = await repositoryState();
    const { content } = await api(`/api/admin/file?path=${SKILL}`);
    const changes = JSON.stringify([
      { path: 'content/skills/zz-dry-run.md', content: content.replace(/^name: .*$/m, 'name: Dry run skill') },
      { path: TRANSLATION, delete: true },
    ]);
    const run = await runVitae(['admin', 'commit', '-', '-m', 'Two changes', '--dry-run'], { env: env(), input: changes });
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(run.stdout, /create\s+content\/skills\/zz-dry-run\.md/);
    assert.match(run.stdout, new RegExp(`delete\\s+${TRANSLATION}`));
    assert.match(run.stdout, /the real commit validates them together/);
    assert.deepEqual(await repositoryState(), before);
  });

  it('promote --dry-run lists what dev has that main lacks, and merges nothing', async () => {
    const { content, sha } = await api(`/api/admin/file?path=${SKILL}&branch=dev`);
    await api('/api/admin/file', {
      method: 'PUT',
      body: JSON.stringify({ path: SKILL, content: content.replace(/\n*$/, '\n\nPreviewed on dev.\n'), message: 'A dev-only change', branch: 'dev', sha }),
    });
    const before = await repositoryState();
    const run = await runVitae(['admin', 'promote', '--dry-run'], { env: env() });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Would merge \d+ commits? from dev into main/);
    assert.match(run.stdout, /A dev-only change/);
    assert.match(run.stdout, new RegExp(`replace\\s+${SKILL}`));
    assert.deepEqual(await repositoryState(), before);
  });

  it('on a terminal: asks y/N; "n" (or just Enter) changes nothing, "y" commits', async () => {
    const before = await repositoryState();
    for (const answer of ['n\n', '\n']) {
      const no = await runVitaeInProcess(['admin', 'rm', SKILL, '-m', 'Remove it', '--branch', 'dev'], { env: env(), interactive: true, input: answer });
      assert.equal(no.code, 0, no.stderr);
      assert.match(no.stderr, /vitae admin rm will delete content\/skills\/typescript\.md on dev in one commit, and publish it\. Go ahead\? \[y\/N\]/);
      assert.match(no.stderr, /Nothing was changed/);
    }
    assert.deepEqual(await repositoryState(), before);

    const { content } = await api(`/api/admin/file?path=${SKILL}&branch=dev`);
    const written = content.replace(/\n*$/, '\n\nConfirmed on a terminal.\n');
    const file = `${service.dataDir}/confirm-input.md`;
    await writeFile(file, written);
    const ok = await runVitaeInProcess(['admin', 'put', SKILL, file, '-m', 'Confirmed', '--branch', 'dev', '--no-color'], {
      env: env(),
      interactive: true,
      input: 'y\n',
    });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^Committed [0-9a-f]{7} to dev: Confirmed$/m);
    assert.equal((await api(`/api/admin/file?path=${SKILL}&branch=dev`)).content, written);
  });
});
