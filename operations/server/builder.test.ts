// Builds made in the worker thread: what the service makes from the worker's answer is the build it made on its
// own thread before, a commit sends the worker only the texts it changed, invalid content comes back as its
// problems, a worker that dies fails only the build under way, and a build that spends longer than its budget on
// one file is stopped, fails naming the file, and holds no later run behind it.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readContentDir } from '../repo/local-repo.server.ts';
import { blobSha, type RepoFiles } from '../repo/change-checks.ts';
import { loadContent } from '../content/tree.ts';
import { createBuild, type Build } from '../corpus/corpus.ts';
import { createBuilder, type MakeInput } from './builder.server.ts';
import type { Passage } from '../corpus/search.ts';
import { openBuildStore, restoreBuild } from '../corpus/persist.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { slicer } from '../content/pause.ts';
import { createPipeline } from './pipeline.server.ts';
import type { Branch } from '../contract/shared.ts';

const texts = await readContentDir(resolve('content'));
const filesOf = (texts: Map<string, string>): RepoFiles => ({
  tree: [...texts].map(([path, text]) => ({ path, mode: '100644', sha: blobSha(text), size: Buffer.byteLength(text) })),
  texts,
});
const input = (commit: string, files: RepoFiles, base?: MakeInput['base']): MakeInput => ({
  commit,
  model: loadContent(files.texts).model ?? loadContent(texts).model!,
  ...(base ? { base } : {}),
  committedAt: new Date('2026-01-02T03:04:05.000Z'),
  fileTimes: new Map([['content/brief.md', new Date('2025-12-01T00:00:00.000Z')]]),
  siteUrl: 'http://site',
  files,
});
const queries = ['hotel guest assistant', 'ホテルの宿泊客向けアシスタント', '临床笔记摘要', 'traduction bénévole espéranto', 'submarine welding'];
const answers = (build: Build) => queries.map((q) => build.search.search(q, 10, { unsure: true }));
/** The demo content with one project's title changed. */
function retitled(title: string): { changed: Map<string, string>; path: string } {
  const changed = new Map(texts);
  const [path, text] = [...changed].find(([p]) => p.startsWith('content/corpus/projects/'))!;
  changed.set(path, text.replace(/^title: .*$/m, `title: ${JSON.stringify(title)}`));
  return { changed, path };
}
/** Most of a build's passages are the objects the service held (`base`), not decoded again; returns those. */
function assertReused(passages: readonly Passage[], base: readonly Passage[]): Set<Passage> {
  const held = new Set(base);
  const reused = passages.filter((p) => held.has(p)).length;
  assert.ok(reused > 0.8 * passages.length, `${reused} of ${passages.length} reused`);
  return held;
}

describe('the build worker', () => {
  const builder = createBuilder();
  after(() => builder.close());
  let first: Build;

  it('makes the build the service made on its own thread: the same records in every locale and the same search answers', async () => {
    const commit = 'a'.repeat(40);
    const made = await builder.make(input(commit, filesOf(texts)), slicer());
    assert.ok('kept' in made, 'the demo content is valid');
    const build = (first = await restoreBuild(made.kept, { siteUrl: 'http://site', keepPassages: true }));
    const here = await createBuild(loadContent(texts).model!, { ...input(commit, filesOf(texts)), keepPassages: true });
    assert.deepEqual(build.model, here.model);
    assert.deepEqual(build.locales, here.locales);
    assert.deepEqual(build.passages, here.passages);
    assert.deepEqual([...build.fileTimes], [...here.fileTimes]);
    assert.equal(build.committedAt, here.committedAt);
    assert.deepEqual(answers(build), answers(here));
  });

  it('sends the worker only the texts it does not hold, and takes the passages that did not change from the live build', async () => {
    const { changed, path } = retitled('Concierge for hotel guests, rebuilt');
    const slug = path.split('/').pop()!.replace(/\.md$/, '');
    const before = { ...builder.counts };
    const base = { commit: 'a'.repeat(40), siteUrl: 'http://site', passages: first.passages! };
    const made = await builder.make(input('b'.repeat(40), filesOf(changed), base));
    assert.ok('kept' in made);
    assert.equal(builder.counts.texts - before.texts, 1);
    // the same passages as a build made here, most of them the live build's own objects
    const here = await createBuild(loadContent(changed).model!, { ...input('b'.repeat(40), filesOf(changed)), keepPassages: true });
    assert.deepEqual(made.kept.passages, here.passages);
    const held = assertReused(made.kept.passages, base.passages);
    assert.ok(made.kept.passages.filter((p) => p.slug === slug && p.locale === 'en').every((p) => !held.has(p)));
    const build = await restoreBuild(made.kept, { siteUrl: 'http://site' });
    assert.equal(build.search.search('concierge rebuilt', 5)[0]?.title.startsWith('Concierge for hotel guests, rebuilt'), true);
  });

  it("sends the files a commit removed and added as a change to the last request, and builds from exactly the commit's files", async () => {
    const changed = new Map(texts);
    const path = [...changed.keys()].find((p) => p.startsWith('content/corpus/projects/'))!;
    const slug = path.split('/').pop()!.replace(/\.md$/, '');
    // the entry goes, with its translations; a copy of it comes under another slug
    const moved = [...changed].filter(([p]) => p === path || p.endsWith(`/${path.slice('content/'.length)}`));
    for (const [p, text] of moved) {
      changed.delete(p);
      changed.set(p.replace(`/${slug}.md`, `/${slug}-moved.md`), text);
    }
    const made = await builder.make(input('9'.repeat(40), filesOf(changed)));
    assert.ok('kept' in made, 'problems' in made ? JSON.stringify(made.problems.slice(0, 3)) : '');
    const here = await createBuild(loadContent(changed).model!, { ...input('9'.repeat(40), filesOf(changed)), keepPassages: true });
    assert.deepEqual(made.kept.passages, here.passages);
    assert.ok(!made.kept.passages.some((p) => p.slug === slug));
    assert.ok(made.kept.passages.some((p) => p.slug === `${slug}-moved`));
  });

  it('warms from a kept build: the next build reuses the passages the service loaded from it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vitae-builder-kept-'));
    const fresh = createBuilder();
    try {
      const store = await openBuildStore(dir, { code: 'test' });
      const commit = '7'.repeat(40);
      // Started with the kept build before it is written (a start that makes it again): the warm-up reads it then.
      fresh.start(store.keptFile(commit));
      const here = await createBuild(loadContent(texts).model!, { ...input(commit, filesOf(texts)), keepPassages: true });
      await store.save(here);
      await store.flush();
      // after a restart: the service loads the kept build, and the worker reads it on its own thread
      const loaded = await restoreBuild((await store.load(commit))!, { siteUrl: 'http://site', keepPassages: true });
      await fresh.warm({ ...input(commit, filesOf(texts)), kept: store.keptFile(commit) });
      const { changed } = retitled('Kept and changed');
      const made = await fresh.make(input('8'.repeat(40), filesOf(changed), { commit, siteUrl: 'http://site', passages: loaded.passages! }));
      assert.ok('kept' in made);
      assertReused(made.kept.passages, loaded.passages!);
      // a kept file that is not there leaves the worker to parse the files: the warm-up still succeeds
      await fresh.warm({ ...input(commit, filesOf(texts)), kept: store.keptFile('6'.repeat(40)) });

      // Read ahead (Builder.start), then named by the warm-up: the next build reuses its passages as before.
      const again = createBuilder();
      try {
        again.start(store.keptFile(commit));
        const reloaded = await restoreBuild((await store.load(commit))!, { siteUrl: 'http://site', keepPassages: true });
        await again.warm({ ...input(commit, filesOf(texts)), kept: store.keptFile(commit) });
        const next = await again.make(input('8'.repeat(40), filesOf(changed), { commit, siteUrl: 'http://site', passages: reloaded.passages! }));
        assert.ok('kept' in next);
        assertReused(next.kept.passages, reloaded.passages!);
      } finally {
        await again.close();
      }
    } finally {
      await fresh.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('warms without a kept build (a start that made its builds): the next build reuses the passages the service made', async () => {
    const fresh = createBuilder();
    try {
      const commit = '5'.repeat(40);
      const here = await createBuild(loadContent(texts).model!, { ...input(commit, filesOf(texts)), keepPassages: true });
      await fresh.warm(input(commit, filesOf(texts)));
      const { changed } = retitled('Warmed and changed');
      const made = await fresh.make(input('4'.repeat(40), filesOf(changed), { commit, siteUrl: 'http://site', passages: here.passages! }));
      assert.ok('kept' in made);
      assertReused(made.kept.passages, here.passages!);
      const build = await restoreBuild(made.kept, { siteUrl: 'http://site', keepPassages: true });
      const direct = await createBuild(loadContent(changed).model!, { ...input('4'.repeat(40), filesOf(changed)), keepPassages: true });
      assert.deepEqual(build.passages, direct.passages);
      assert.deepEqual(answers(build), answers(direct));
    } finally {
      await fresh.close();
    }
  });

  it('answers invalid content with its problems, irregular entries included, and builds the next commit', async () => {
    const broken = new Map(texts);
    broken.set('content/site.json', '{ "not": "a site" ');
    const files = filesOf(broken);
    files.tree.push({ path: 'content/corpus/projects/link.md', mode: '120000', sha: 'c'.repeat(40), size: 4 });
    const made = await builder.make(input('c'.repeat(40), files));
    assert.ok('problems' in made);
    assert.ok(made.problems.some((p) => p.path === 'content/site.json'));
    assert.ok(made.problems.some((p) => p.path === 'content/corpus/projects/link.md' && /symlinks/.test(p.message)));
    assert.ok('kept' in (await builder.make(input('d'.repeat(40), filesOf(texts)))));
  });

  it('fails the build under way when the worker dies (here: out of its memory), and starts a new worker for the next one', async () => {
    const starved = createBuilder({ resourceLimits: { maxOldGenerationSizeMb: 4, maxYoungGenerationSizeMb: 1 } });
    try {
      await assert.rejects(starved.make(input('e'.repeat(40), filesOf(texts))), /build worker/);
      await assert.rejects(starved.make(input('f'.repeat(40), filesOf(texts))), /build worker/);
      assert.equal(starved.counts.workers, 2);
      // the second worker was sent every text again: the one that died held none
      assert.equal(starved.counts.texts, 2 * texts.size);
    } finally {
      await starved.close();
    }
  });
});

describe("a build's time budget", () => {
  // The worker stops at a file as a step that never ends would (`stall`): the budget is what ends the build.
  const budget = 2000;
  const entry = [...texts.keys()].find((p) => p.startsWith('content/corpus/projects/'))!;
  const slug = entry.split('/').pop()!.replace(/\.md$/, '');
  const withoutEntry = new Map([...texts].filter(([path]) => !path.endsWith(`/${slug}.md`)));
  const over = (path: string) => new RegExp(`more than ${budget / 1000} s on ${path.replace(/[.]/g, '\\.')} and was stopped`);

  it('stops a build that spends longer than its budget on one file, fails it naming the file, and makes the build queued behind it', async () => {
    const builder = createBuilder({ fileBudgetMs: budget, stall: { path: entry } });
    try {
      const stuck = builder.make(input('1'.repeat(40), filesOf(texts)));
      const next = builder.make(input('2'.repeat(40), filesOf(withoutEntry)));
      await assert.rejects(stuck, over(entry));
      const made = await next;
      assert.ok('kept' in made, 'the next commit (the file taken out) builds');
      assert.ok(!made.kept.passages.some((p) => p.slug === slug));
      assert.equal(builder.counts.workers, 2, 'the stopped worker was replaced');
    } finally {
      await builder.close();
    }
  });

  it("names the file a record's text came from: a translation, not its English source", async () => {
    const translation = [...texts.keys()].find((p) => p.startsWith('content/i18n/fr/corpus/projects/'))!;
    // The second time the work comes to it: after its check, its passages.
    const builder = createBuilder({ fileBudgetMs: budget, stall: { path: translation, visit: 2 } });
    try {
      await assert.rejects(builder.make(input('3'.repeat(40), filesOf(texts))), over(translation));
    } finally {
      await builder.close();
    }
  });

  it('fails the run of that build with the file named, and a run queued behind it on the other branch publishes', async () => {
    const builder = createBuilder({ fileBudgetMs: budget, stall: { path: entry } });
    const dir = await mkdtemp(join(tmpdir(), 'vitae-budget-'));
    const trees: Record<string, Map<string, string>> = { ['5'.repeat(40)]: texts, ['6'.repeat(40)]: withoutEntry };
    const deployed: Array<[Branch, string]> = [];
    try {
      const pipeline = await createPipeline(dir, {
        translate: async () => ({ status: 'skipped', note: 'no model in tests' }),
        build: async (_branch, commit) => {
          const made = await builder.make(input(commit, filesOf(trees[commit]!)));
          if ('problems' in made) throw new Error('invalid');
          return commit;
        },
        deploy: async (branch, commit) => void deployed.push([branch, commit]),
      });
      const main = await pipeline.enqueue('main', '5'.repeat(40));
      const dev = await pipeline.enqueue('dev', '6'.repeat(40));
      await pipeline.idle();
      const stuck = pipeline.get(main.id)!;
      const next = pipeline.get(dev.id)!;
      assert.equal(stuck.status, 'failure');
      assert.match(stuck.error!, over(entry));
      assert.equal(stuck.stages.find((s) => s.name === 'build')!.status, 'failure');
      assert.equal(next.status, 'success');
      assert.deepEqual(deployed, [['dev', '6'.repeat(40)]]);
    } finally {
      await builder.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
