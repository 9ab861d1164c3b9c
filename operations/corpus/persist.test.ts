// Builds kept by commit: the index as data answers as the index it came from, a kept build restores the same
// build, and a file that is not whole, of another format or of other code is never used.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { Locale } from '../contract/shared.ts';
import { readContentDir } from '../repo/local-repo.server.ts';
import { loadContent } from '../content/tree.ts';
import { createBuild, searchPassages, type Build } from './corpus.ts';
import { bm25FromData, createBm25 } from './bm25.ts';
import { createSearchIndex, searchIndexFromData, type SearchIndex } from './search.ts';
import { analyse } from './analyse.ts';
import { encode, keptOf, openBuildStore, readKept, restoreBuild, FORMAT_VERSION, type KeptBuild } from './persist.ts';

const { model } = loadContent(await readContentDir(resolve('content')));
const commit = 'a'.repeat(40);
const made = await createBuild(model!, {
  commit,
  siteUrl: 'http://site',
  committedAt: new Date('2026-01-02T03:04:05.000Z'),
  builtAt: new Date('2026-02-03T04:05:06.000Z'),
  fileTimes: new Map([['content/brief.md', new Date('2025-12-01T00:00:00.000Z')]]),
});

const queries: Array<[string, Locale | undefined]> = [
  ['hotel guest assistant', undefined],
  ['evaluation harness for retrieval', 'en'],
  ['ホテルの宿泊客向けアシスタント', 'ja'],
  ['临床笔记摘要', undefined],
  ['客務部主任', 'zh-hant'],
  ['traduction bénévole espéranto', 'fr'],
  ['incorporación de monederos', 'es'],
  ['hotela gasto', 'eo'],
  ['a question the profile cannot answer: submarine welding', undefined],
];
const answers = (index: SearchIndex) => queries.map(([q, locale]) => index.search(q, 10, { ...(locale ? { locale } : {}), unsure: true }));

/** What a build answers with, apart from its search. */
const records = (build: Build) => ({
  id: build.id,
  commit: build.commit,
  committedAt: build.committedAt,
  builtAt: build.builtAt,
  fileTimes: [...build.fileTimes],
  siteUrl: build.siteUrl,
  locales: build.locales,
});

async function tempDir() {
  return mkdtemp(join(tmpdir(), 'vitae-persist-'));
}

/** `kept` written to a file as a store writes it, then read by `read`. */
async function keptFile<T>(kept: KeptBuild, read: (file: string, expected: { format: number; code: string; commit: string }) => Promise<T>): Promise<T> {
  const dir = await tempDir();
  try {
    const file = join(dir, 'kept.bin');
    await writeFile(file, await encode(kept, { format: FORMAT_VERSION, code: 'c' }));
    return await read(file, { format: FORMAT_VERSION, code: 'c', commit: kept.commit });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the search index as data', () => {
  it('answers every query as the index it was taken from, after a round trip through v8 serialisation', async () => {
    const passages = searchPassages(model!, 'http://site');
    const index = await createSearchIndex(passages, { related: model!.relatedTerms });
    const data = deserialize(serialize(index.toData!())) as ReturnType<NonNullable<SearchIndex['toData']>>;
    for (const { passages: ids, engine } of data.locales) {
      assert.ok(ids instanceof Int32Array && engine.docs instanceof Int32Array && engine.scores instanceof Float64Array, 'typed arrays stay typed');
    }
    const again = await searchIndexFromData(passages, data, { related: model!.relatedTerms });
    assert.equal(again.size, index.size);
    const expected = answers(index);
    assert.ok(expected.filter((hits) => hits.length > 0).length >= 8, 'the queries find something');
    assert.deepEqual(answers(again), expected);
  });

  it('keeps BM25 postings, idf and rankings', async () => {
    const docs = [
      { title: 'hotel guests', text: 'an assistant that answers hotel guests at night' },
      { title: 'evaluation', text: 'a harness that evaluates retrieval for hotel search' },
      { title: 'meetup', text: 'a web meetup in Osaka' },
    ];
    const index = await createBm25(docs, (t) => analyse(t, 'en'), { fieldWeights: { title: 2, text: 1 } });
    const again = await bm25FromData(deserialize(serialize(index.toData())) as ReturnType<typeof index.toData>);
    assert.equal(again.size, index.size);
    assert.equal(again.maxIdf, index.maxIdf);
    for (const token of ['hotel', 'guest', 'meetup', 'osaka', 'absent']) assert.deepEqual(again.postings(token), index.postings(token));
    for (const query of [['hotel'], ['hotel', 'retriev'], ['meetup', 'guest'], ['absent']]) assert.deepEqual(again.search(query, 5), index.search(query, 5));
  });

  it('refuses data that does not fit the passages', async () => {
    const passages = searchPassages(model!, 'http://site');
    const data = made.search.toData!();
    await assert.rejects(searchIndexFromData(passages.slice(1), data), /passages/);
    const shuffled = [...passages].reverse();
    await assert.rejects(searchIndexFromData(shuffled, data), /does not fit/);
    const broken = { ...data.locales[0]!.engine, offsets: data.locales[0]!.engine.offsets.subarray(1) };
    await assert.rejects(bm25FromData(broken), /inconsistent/);
  });
});

describe('a kept build', () => {
  it('restores the same records, times and search results, at its own site address or another', async () => {
    const kept = await keptFile(keptOf(made)!, (file, expected) => readKept(file, expected));
    // The index's arrays are memory of their own: the bytes read are not held for as long as the build is served.
    const arrays = kept.search.locales.flatMap(({ passages, engine }) => [passages, engine.offsets, engine.docs, engine.scores, engine.idfs]);
    assert.ok(arrays.every((a) => a.byteLength === a.buffer.byteLength));
    const withoutIndex = await keptFile(keptOf(made)!, (file, expected) => readKept(file, expected, { index: false }));
    assert.equal('search' in withoutIndex, false);
    assert.deepEqual(withoutIndex.passages, kept.passages);
    const restored = await restoreBuild(kept, { siteUrl: 'http://site' });
    assert.deepEqual(records(restored), records(made));
    assert.deepEqual(restored.model, made.model);
    assert.deepEqual(answers(restored.search), answers(made.search));

    // dev's address: as a build made there
    const there = await createBuild(model!, { commit, siteUrl: 'http://dev.site', builtAt: new Date(made.builtAt), committedAt: new Date(made.committedAt) });
    const restoredThere = await restoreBuild(kept, { siteUrl: 'http://dev.site/', keepPassages: true });
    assert.deepEqual(restoredThere.locales, there.locales);
    assert.deepEqual(answers(restoredThere.search), answers(there.search));
    assert.ok(restoredThere.passages && restoredThere.passages.length === made.search.size, 'passages are kept for hybrid search when asked');
    assert.ok(
      answers(restoredThere.search)
        .flat()
        .every((hit) => hit.url.startsWith('http://dev.site')),
    );
  });

  it('lends its passages when its content’s are made again (a build worker warming up), instead of splitting every entry', async () => {
    const kept = await keptFile(keptOf(made)!, (file, expected) => readKept(file, expected));
    // The kept model is a copy: its records are new, so nothing made before stands for them.
    const again = searchPassages(kept.model, 'http://site', kept.passages);
    assert.deepEqual(again, searchPassages(model!, 'http://site'));
    const entries = kept.passages.filter((p) => p.kind === 'entry');
    assert.ok(entries.length > 100 && entries.every((p) => again.includes(p)), 'the kept passage objects themselves');
  });

  it('is saved whole under DATA_DIR/builds by commit and loaded by the same code', async () => {
    const dir = await tempDir();
    try {
      const store = await openBuildStore(dir, { code: 'code-1' });
      assert.equal(await store.load(commit), undefined, 'nothing kept yet');
      await store.save(made);
      assert.deepEqual(await readdir(dir), [`${commit}-v${FORMAT_VERSION}.bin`], 'one file, no temporary file left');
      const kept = await store.load(commit);
      assert.ok(kept);
      assert.equal(kept.builtAt, made.builtAt);
      // up to its index, for a build worker warming up: the same model and passages, read without the index
      const file = store.keptFile(commit);
      const whole = await readFile(file.file);
      const header = JSON.parse(whole.subarray(16, 16 + whole.readUInt32LE(12)).toString('utf8')) as { parts: number[] };
      await truncate(file.file, whole.length - header.parts[2]!);
      const warm = await readKept(file.file, file, { index: false });
      assert.deepEqual(warm.passages, kept.passages);
      assert.deepEqual(warm.model, kept.model);
      await assert.rejects(readKept(file.file, file), /truncated/, 'the whole build needs the whole file');
      await writeFile(file.file, whole);
      assert.deepEqual(answers((await restoreBuild(kept, { siteUrl: 'http://site' })).search), answers(made.search));
      assert.deepEqual(store.counts, { loaded: 1, saved: 1, rejected: 0 });
      assert.equal(await store.load('b'.repeat(40)), undefined, 'another commit');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is not used when corrupt, truncated, of another format or of other code, and a save replaces it', async () => {
    const dir = await tempDir();
    const file = join(dir, `${commit}-v${FORMAT_VERSION}.bin`);
    const logged: string[] = [];
    try {
      const store = await openBuildStore(dir, { code: 'code-1', log: (line) => logged.push(line) });
      await store.save(made);
      const whole = await readFile(file);

      const corrupt = Buffer.from(whole);
      corrupt[corrupt.length - 100]! ^= 0xff;
      await writeFile(file, corrupt);
      assert.equal(await store.load(commit), undefined);
      assert.match(logged.at(-1)!, /corrupt/);

      await truncate(file, Math.floor(whole.length / 2));
      assert.equal(await store.load(commit), undefined);
      assert.match(logged.at(-1)!, /truncated/);

      await truncate(file, 5);
      assert.equal(await store.load(commit), undefined);

      await writeFile(file, 'garbage that is not a build at all');
      assert.equal(await store.load(commit), undefined);

      await writeFile(file, whole);
      const otherCode = await openBuildStore(dir, { code: 'code-2', log: (line) => logged.push(line) });
      assert.equal(await otherCode.load(commit), undefined);
      assert.match(logged.at(-1)!, /another version of the code/);

      // another format version under this version's name (a file written by a build that forgot to bump it)
      await writeFile(file, await encode(keptOf(made)!, { format: FORMAT_VERSION + 1, code: 'code-1' }));
      assert.equal(await store.load(commit), undefined);
      assert.match(logged.at(-1)!, /format/);
      assert.equal(store.counts.rejected, 5);

      await store.save(made);
      assert.equal((await store.load(commit))?.builtAt, made.builtAt, 'the save replaced it');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('of an older format is not read, and is deleted by the next prune', async () => {
    const dir = await tempDir();
    try {
      const old = await openBuildStore(dir, { code: 'code-1', format: FORMAT_VERSION - 1 });
      await old.save(made);
      const store = await openBuildStore(dir, { code: 'code-1' });
      assert.equal(await store.load(commit), undefined);
      await store.prune([commit]);
      assert.deepEqual(await readdir(dir), []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('pruning kept builds', () => {
  it('keeps the live commits and the most recently used others, and deletes stale temporary files', async () => {
    const dir = await tempDir();
    try {
      const store = await openBuildStore(dir, { code: 'code-1', recent: 2 });
      const commits = ['1', '2', '3', '4', '5', '6'].map((c) => c.repeat(40));
      const small = { ...made, search: { size: 0, search: () => [], toData: () => ({ size: 0, locales: [] }) } };
      for (const [i, c] of commits.entries()) {
        await store.save({ ...small, commit: c });
        const time = new Date(Date.UTC(2026, 0, 1 + i));
        await utimes(join(dir, `${c}-v${FORMAT_VERSION}.bin`), time, time);
      }
      const staleTemp = join(dir, `${commits[0]}-v${FORMAT_VERSION}.bin.123.abc.tmp`);
      const freshTemp = join(dir, `${commits[1]}-v${FORMAT_VERSION}.bin.456.def.tmp`);
      await writeFile(staleTemp, 'half');
      await utimes(staleTemp, new Date(Date.UTC(2026, 0, 1)), new Date(Date.UTC(2026, 0, 1)));
      await writeFile(freshTemp, 'a save under way');
      await writeFile(join(dir, 'unknown.bin'), 'x');

      // live: 1 (oldest) and 3; the two newest others: 6 and 5
      await store.prune([commits[0]!, commits[2]!]);
      assert.deepEqual(
        (await readdir(dir)).sort(),
        [
          `${commits[0]}-v${FORMAT_VERSION}.bin`,
          `${commits[2]}-v${FORMAT_VERSION}.bin`,
          `${commits[4]}-v${FORMAT_VERSION}.bin`,
          `${commits[5]}-v${FORMAT_VERSION}.bin`,
          freshTemp.slice(dir.length + 1),
        ].sort(),
      );

      // loading a build makes it the most recent
      await store.load(commits[4]!).catch(() => undefined);
      await store.save({ ...small, commit: commits[3]! });
      await store.prune([]);
      const left = (await readdir(dir)).filter((n) => n.endsWith('.bin')).sort();
      assert.deepEqual(left, [`${commits[3]}-v${FORMAT_VERSION}.bin`, `${commits[4]}-v${FORMAT_VERSION}.bin`].sort());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
