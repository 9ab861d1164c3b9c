// Hybrid search through HTTP (issue 17 item 5): with EMBEDDING_MODEL the service embeds its passages once
// through @ai-sdk/openai against the scripted model server, finds by meaning what BM25 cannot find by words,
// never embeds unchanged text again (not after a restart), and answers with BM25 alone — without keeping that
// answer — while the model is down.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { hashedWords, startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai.ts';
import { startTestService, type TestService } from '../../testing/service.ts';

/**
 * A made-up embeddings model: one strong dimension per concept, so the test knows which texts are close in
 * meaning, beside every other word hashed weakly (texts without a concept still differ from one another).
 */
const concepts = [
  ['xenodochy', 'hotel', 'hotels', 'hospitality', 'guest', 'guests'],
  ['photograph', 'photographs', 'photography', 'photo', 'zine'],
];
function conceptVector(text: string): number[] {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  return [...concepts.map((group) => 3 * words.filter((w) => group.includes(w)).length), ...hashedWords(text).map((x) => 0.2 * x)];
}

let fake: FakeOpenAI;
let service: TestService;
let plain: TestService;

const search = async (s: TestService, q: string) => {
  const res = await s.get(`/api/v1/search?q=${encodeURIComponent(q)}&limit=5`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { results: Array<{ slug: string; passage: string; confidence: number }> }).results;
};
const embeddedTexts = () => fake.requests.filter((r) => r.path.endsWith('/embeddings')).flatMap((r) => r.body.input as string[]);

before(async () => {
  fake = await startFakeOpenAI();
  fake.embed = conceptVector;
  service = await startTestService({ OPENAI_BASE_URL: fake.url, EMBEDDING_MODEL: 'concepts-1' });
  plain = await startTestService();
});
after(async () => {
  await service.stop();
  await rm(service.dataDir, { recursive: true, force: true }); // reopened by the restart test: no longer the service's own
  await plain.stop();
  await fake.close();
});

describe('hybrid search', () => {
  it('embeds every passage at the build, each text once', () => {
    const texts = embeddedTexts();
    assert.ok(texts.length > 100, `${texts.length} passages embedded`);
    assert.equal(new Set(texts).size, texts.length, 'no text sent twice (main and dev share one commit)');
  });

  it('finds by meaning what has none of the question’s words; BM25 alone finds nothing', async () => {
    assert.deepEqual(await search(plain, 'xenodochy'), []);
    const results = await search(service, 'xenodochy');
    assert.ok(results.length > 0);
    for (const r of results) assert.match(r.passage.toLowerCase(), /hotel|hospitality|guest/, `${r.slug} is about hospitality`);
    assert.ok(results.every((r) => r.confidence >= 0.6));
  });

  it('keeps BM25’s word for a plain question, and no match for what neither ranking holds', async () => {
    const hybrid = await search(service, 'Orbitale');
    const alone = await search(plain, 'Orbitale');
    assert.ok(alone.length > 0);
    assert.ok(
      hybrid.some((r) => r.slug === alone[0]!.slug),
      'BM25’s best is still among the first five',
    );
    const lexical = new Set((await search(plain, 'Orbitale')).map((r) => r.slug));
    for (const r of hybrid) assert.ok(lexical.has(r.slug) || r.confidence >= 0.6, `${r.slug}: a match by words or by meaning`);
    assert.deepEqual(await search(service, 'underwater basket weaving championship'), []);
  });

  it('answers with BM25 alone while the model is down, and does not keep that answer', async () => {
    fake.embedStatus = 503;
    try {
      const degraded = await service.get(`/api/v1/search?q=${encodeURIComponent('xenodochy guests')}&limit=5`);
      assert.equal(degraded.headers.get('etag'), null, 'no ETag: a client revalidating it later would be told it is current');
      assert.equal(degraded.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await search(service, 'xenodochy guests'), [], 'BM25 alone does not know the word');
      assert.ok((await search(service, 'Orbitale')).length > 0, 'search still answers');
    } finally {
      fake.embedStatus = undefined;
    }
    assert.ok((await search(service, 'xenodochy guests')).length > 0, 'once the model is back, the question is answered by meaning');
  });

  it('never embeds unchanged text again: a restart on the same data sends only questions', async () => {
    const dataDir = service.dataDir;
    await service.close();
    const before = fake.requests.length;
    service = await startTestService({ OPENAI_BASE_URL: fake.url, EMBEDDING_MODEL: 'concepts-1', DATA_DIR: dataDir });
    assert.equal(fake.requests.slice(before).filter((r) => r.path.endsWith('/embeddings')).length, 0);
    assert.ok((await search(service, 'xenodochy')).length > 0);
    const sent = fake.requests.slice(before).flatMap((r) => r.body.input as string[]);
    assert.deepEqual(sent, ['xenodochy']);
  });
});
