import assert from 'node:assert/strict';
import { appendFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai.ts';
import { loadConfig } from '../server/config.server.ts';
import { createModels } from '../server/models.server.ts';
import { normalise, openEmbeddingCache, reciprocalRankFusion, VectorIndex, type EmbedTexts } from './embeddings.ts';

let fake: FakeOpenAI;
let dir: string;
let embed: EmbedTexts;

before(async () => {
  fake = await startFakeOpenAI();
  dir = await mkdtemp(join(tmpdir(), 'vitae-embeddings-'));
  // The production path: @ai-sdk/openai's embeddings model over HTTP, as the service makes it.
  const models = await createModels(loadConfig({ OPENAI_BASE_URL: fake.url, EMBEDDING_MODEL: 'fake-embed' }));
  assert.ok(models?.embedTexts, 'EMBEDDING_MODEL makes an embeddings function');
  embed = models.embedTexts;
});
after(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const embeddingCalls = () => fake.requests.filter((r) => r.path.endsWith('/embeddings'));

describe('the embeddings cache', () => {
  it('embeds each text once: a second build, and a restart, send only new text to the model', async () => {
    const file = join(dir, 'once.bin');
    const texts = ['Led the platform team', 'Built the booking engine', 'Led the platform team'];
    const cache = await openEmbeddingCache(file, 'fake-embed');
    const first = await cache.vectorsOf(texts, embed);
    assert.equal(first.length, 3);
    assert.equal(cache.embedded, 2, 'the repeated text is embedded once');
    assert.deepEqual(first[0], first[2]);
    const sent = embeddingCalls().flatMap((r) => r.body.input as string[]);
    assert.deepEqual(sent.sort(), ['Built the booking engine', 'Led the platform team']);

    const again = await cache.vectorsOf([...texts, 'Mentored four engineers'], embed);
    assert.equal(cache.embedded, 3, 'only the new text');
    assert.deepEqual(again[1], first[1]);

    const reopened = await openEmbeddingCache(file, 'fake-embed');
    assert.equal(reopened.size, 3);
    const before = embeddingCalls().length;
    const restored = await reopened.vectorsOf(texts, embed);
    assert.equal(embeddingCalls().length, before, 'nothing embedded after a restart');
    assert.deepEqual(restored[1], first[1]);
  });

  it('keys vectors by model: another model embeds the same text again', async () => {
    const file = join(dir, 'models.bin');
    const a = await openEmbeddingCache(file, 'model-a');
    await a.vectorsOf(['same text'], embed);
    const b = await openEmbeddingCache(file, 'model-b');
    await b.vectorsOf(['same text'], embed);
    assert.equal(b.embedded, 1);
  });

  it('drops a record a crash cut short, keeping every whole one', async () => {
    const file = join(dir, 'torn.bin');
    const cache = await openEmbeddingCache(file, 'fake-embed');
    await cache.vectorsOf(['one', 'two'], embed);
    const whole = (await stat(file)).size;
    await appendFile(
      file,
      Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 64, 0]),
    ); // a header whose vector never came
    const reopened = await openEmbeddingCache(file, 'fake-embed');
    assert.equal(reopened.size, 2);
    assert.equal((await stat(file)).size, whole);
  });

  it('forgets text no longer served once it is most of the file, keeping what a build under way asked for', async () => {
    const file = join(dir, 'compact.bin');
    // Deterministic vectors without the model: a text's length and first letters.
    const local: EmbedTexts = async (texts) => texts.map((t) => [t.length, t.charCodeAt(0), t.charCodeAt(1) || 1]);
    const cache = await openEmbeddingCache(file, 'fake-embed');
    const old = Array.from({ length: 1500 }, (_, i) => `old passage ${i}`);
    const served = ['served one', 'served two'];
    await cache.vectorsOf([...old, ...served], local);
    const full = (await stat(file)).size;
    assert.equal(await cache.compact([...old, ...served]), false, 'nothing to forget while it is all served');

    // A build under way asks for a text the compaction is not told of: its vector stays.
    let compacted!: Promise<boolean>;
    const building = cache.vectorsOf(['under way', 'served one'], async (texts) => {
      compacted = cache.compact(served);
      return local(texts);
    });
    const [underWay] = await building;
    assert.equal(await compacted, true);
    assert.ok((await stat(file)).size < full / 100, `the file holds what is served: ${(await stat(file)).size} of ${full} bytes`);
    assert.equal(cache.size, 3);

    const reopened = await openEmbeddingCache(file, 'fake-embed');
    assert.equal(reopened.size, 3);
    let sent: string[] = [];
    const again = await reopened.vectorsOf(['served two', 'under way', 'old passage 7'], async (texts) => ((sent = texts), local(texts)));
    assert.deepEqual(sent, ['old passage 7'], 'only the forgotten text is embedded again');
    assert.deepEqual(again[1], underWay);
  });

  it('embeds a text once when two builds ask for it at the same time (main and dev), and keeps it once', async () => {
    const file = join(dir, 'concurrent.bin');
    const cache = await openEmbeddingCache(file, 'fake-embed');
    const sent: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: EmbedTexts = async (texts) => {
      sent.push(...texts);
      await gate;
      return texts.map((t) => [t.length, 1]);
    };
    const main = cache.vectorsOf(['shared passage', 'main only'], slow);
    const dev = cache.vectorsOf(['shared passage', 'dev only'], slow);
    release();
    const [a, b] = await Promise.all([main, dev]);
    assert.deepEqual(a[0], b[0]);
    assert.deepEqual(sent.sort(), ['dev only', 'main only', 'shared passage']);
    assert.equal(cache.embedded, 3);
    const record = 32 + 4 + 2 * 4;
    assert.equal((await stat(file)).size, 3 * record, 'each vector written once');
  });

  it('goes on writing after a write failed once', async () => {
    const file = join(dir, 'failed-write.bin');
    const cache = await openEmbeddingCache(file, 'fake-embed');
    await mkdir(file); // the file cannot be opened for appending
    await assert.rejects(cache.vectorsOf(['lost'], embed), /EISDIR/);
    await rm(file, { recursive: true });
    await cache.vectorsOf(['kept'], embed);
    assert.equal((await openEmbeddingCache(file, 'fake-embed')).size, 1, 'the next write is made');
  });

  it('batches what it sends and says when the model answers the wrong number of vectors', async () => {
    const cache = await openEmbeddingCache(join(dir, 'batch.bin'), 'fake-embed');
    const before = embeddingCalls().length;
    await cache.vectorsOf(
      Array.from({ length: 10 }, (_, i) => `text ${i} ${'x'.repeat(i)}`),
      embed,
      { batch: 4 },
    );
    assert.equal(embeddingCalls().length - before, 3);
    const short: EmbedTexts = async (texts) => texts.slice(1).map(() => [1, 0]);
    await assert.rejects(cache.vectorsOf(['a', 'b'], short), /answered 1 vectors for 2 texts/);
  });
});

describe('nearest passages', () => {
  it('ranks by cosine, best first, the k best of all', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }),
        fc.integer({ min: 1, max: 10 }),
        (raw, q, k) => {
          const vectors = raw.map(normalise);
          const query = normalise(q);
          const index = new VectorIndex(vectors);
          const got = index.nearest(query, k);
          const all = vectors.map((v, i) => [i, v[0]! * query[0]! + v[1]! * query[1]! + v[2]! * query[2]!] as const).sort((a, b) => b[1] - a[1]);
          assert.equal(got.length, Math.min(k, vectors.length));
          got.forEach(([, score], i) => assert.ok(Math.abs(score - all[i]![1]) < 1e-5));
        },
      ),
    );
  });
});

describe('reciprocal rank fusion', () => {
  it('puts first what both rankings rank well, and keeps what only one found', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['b', 'd', 'a'],
    ]).map((r) => r.id);
    assert.deepEqual(fused.slice(0, 2), ['b', 'a']);
    assert.ok(fused.includes('c') && fused.includes('d'));
  });
});
