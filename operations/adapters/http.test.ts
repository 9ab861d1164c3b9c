// The public REST API through real HTTP on a random port, over a real git repository built from content/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getBrief, getDocument, getEntry, getLens, listExperience, listLenses, searchSubject } from '../contract/public.ts';
import { documentNames, kinds, lensIds, locales, tags } from '../contract/shared.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { ErrorBodySchema } from '../contract/shared.ts';

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(() => service.stop());

async function json(path: string, init?: RequestInit) {
  const res = await service.get(path, init);
  return { res, body: await res.json() };
}

async function expectError(path: string, status: number, code: string) {
  const { res, body } = await json(path);
  assert.equal(res.status, status, `${path} → ${res.status} ${JSON.stringify(body)}`);
  ErrorBodySchema.parse(body);
  assert.equal(body.code, code);
  assert.ok(body.message.length > 10, 'the message says what to do');
  return body;
}

describe('list_experience GET /api/v1/entries', () => {
  it('answers every locale with entries matching the output schema, newest first', async () => {
    for (const locale of locales) {
      const { res, body } = await json(`/api/v1/entries?locale=${locale}`);
      assert.equal(res.status, 200);
      const parsed = listExperience.output.parse(body);
      assert.ok(parsed.entries.length >= 24);
      assert.equal(parsed.total, parsed.entries.length);
      for (const e of parsed.entries) assert.equal(e.locale, locale);
      const starts = parsed.entries.map((e) => e.period.start);
      assert.deepEqual(starts, [...starts].sort().reverse(), 'sorted by start month, newest first');
    }
  });

  it('pages with limit and cursor: the pages put together are the whole list, and a stale cursor says so', async () => {
    const all = (await json('/api/v1/entries?kind=project')).body;
    assert.equal(all.next, undefined, 'without limit the answer is as before');
    const seen: string[] = [];
    let cursor = '';
    for (let page = 0; page < 20; page++) {
      const { res, body } = await json(`/api/v1/entries?kind=project&limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200);
      assert.equal(body.total, all.total);
      assert.ok(body.entries.length <= 4);
      seen.push(...body.entries.map((e: { slug: string }) => e.slug));
      if (body.next === null) break;
      cursor = body.next;
    }
    assert.deepEqual(
      seen,
      all.entries.map((e: { slug: string }) => e.slug),
    );
    const stale = await json('/api/v1/entries?limit=4&cursor=no-such-entry');
    assert.equal(stale.res.status, 400);
    assert.match(stale.body.message, /start again without a cursor/);
    assert.equal((await json('/api/v1/entries?limit=05')).res.status, 400);
  });

  it('puts ongoing entries first when two start in the same month', async () => {
    const { body } = await json('/api/v1/entries');
    for (let i = 1; i < body.entries.length; i++) {
      const [a, b] = [body.entries[i - 1], body.entries[i]];
      if (a.period.start === b.period.start) assert.ok(!(a.period.end !== null && b.period.end === null), `${a.slug} before ${b.slug}`);
    }
  });

  it('translates into the requested locale and flags records that fell back to English', async () => {
    const en = (await json('/api/v1/entries')).body.entries;
    const ja = (await json('/api/v1/entries?locale=ja')).body.entries;
    const translated = ja.filter((e: any) => e.translated);
    assert.ok(translated.length >= 20, 'most entries are translated into Japanese');
    for (const e of translated) {
      const english = en.find((x: any) => x.slug === e.slug);
      assert.notEqual(e.title, english.title, `${e.slug} has a Japanese title`);
      assert.match(e.url, /\/ja\/entries\//);
    }
    const allLocales = await Promise.all(locales.filter((l) => l !== 'en').map(async (l) => (await json(`/api/v1/entries?locale=${l}`)).body.entries));
    const fallbacks = allLocales.flat().filter((e: any) => !e.translated);
    assert.ok(fallbacks.length >= 1, 'the deliberately stale translation falls back');
    for (const e of fallbacks) assert.equal(e.title, en.find((x: any) => x.slug === e.slug).title);
  });

  it('combines the tag, lens and kind filters', async () => {
    const all = (await json('/api/v1/entries')).body.entries as any[];
    for (const tag of tags) {
      const { body } = await json(`/api/v1/entries?tag=${tag}`);
      assert.ok(body.entries.length > 0, `tag ${tag} is used`);
      assert.deepEqual(
        body.entries.map((e: any) => e.slug),
        all.filter((e) => e.tags.includes(tag)).map((e) => e.slug),
      );
    }
    for (const lens of lensIds) {
      const { body } = await json(`/api/v1/entries?lens=${lens}`);
      assert.ok(body.entries.length > 0, `lens ${lens} is used`);
    }
    for (const kind of kinds) {
      const { body } = await json(`/api/v1/entries?kind=${kind}`);
      assert.ok(body.entries.length > 0 && body.entries.every((e: any) => e.kind === kind));
    }
    const { body } = await json('/api/v1/entries?tag=ai&lens=head-of-ai&kind=project');
    const expected = all.filter((e) => e.tags.includes('ai') && e.lenses.includes('head-of-ai') && e.kind === 'project');
    assert.ok(expected.length > 0);
    assert.deepEqual(
      body.entries.map((e: any) => e.slug),
      expected.map((e) => e.slug),
    );
  });

  it('rejects unknown tag, lens, kind and locale with 400 naming the allowed values', async () => {
    const body = await expectError('/api/v1/entries?tag=cooking', 400, 'bad_request');
    assert.equal(body.errors.length, 1);
    assert.equal(body.errors[0].pointer, '/tag');
    assert.match(body.errors[0].message, /hospitality/);
    await expectError('/api/v1/entries?lens=astronaut', 400, 'bad_request');
    await expectError('/api/v1/entries?kind=hobby', 400, 'bad_request');
    const locale = await expectError('/api/v1/entries?locale=de', 400, 'bad_request');
    assert.match(locale.errors[0].message, /zh-hant/);
    const two = await expectError('/api/v1/entries?tag=x&kind=y', 400, 'bad_request');
    assert.equal(two.errors.length, 2, 'one problem per invalid field');
    await expectError('/api/v1/entries?tag=ai&tag=web3', 400, 'bad_request');
  });
});

describe('get_entry GET /api/v1/entries/{slug}', () => {
  it('returns the long form in every locale', async () => {
    const { body: list } = await json('/api/v1/entries');
    for (const { slug } of list.entries) {
      for (const locale of ['en', 'ja', 'eo']) {
        const { res, body } = await json(`/api/v1/entries/${slug}?locale=${locale}`);
        assert.equal(res.status, 200);
        const entry = getEntry.output.parse(body);
        assert.ok(entry.overview && entry.contributions.length && entry.skills.length && entry.whyItMatters);
      }
    }
  });

  it('answers 404 for an unknown or malformed slug and 400 for a bad locale', async () => {
    await expectError('/api/v1/entries/no-such-entry', 404, 'not_found');
    await expectError('/api/v1/entries/Not_A_Slug', 404, 'not_found');
    await expectError('/api/v1/entries/concierge-copilot?locale=xx', 400, 'bad_request');
  });

  it('rejects malformed percent-encoding with 400, never 500', async () => {
    await expectError('/api/v1/entries/%E0%A4%A', 400, 'bad_request');
    await expectError('/api/v1/entries?tag=%zz', 400, 'bad_request');
    await expectError('/api/v1/search?q=%', 400, 'bad_request');
  });
});

describe('list_lenses GET /api/v1/lenses', () => {
  it('lists all eleven lenses with a pitch, honest gaps and evidence counts', async () => {
    for (const locale of locales) {
      const { body } = await json(`/api/v1/lenses?locale=${locale}`);
      const { lenses } = listLenses.output.parse(body);
      assert.deepEqual(
        lenses.map((l) => l.id),
        [...lensIds],
      );
      for (const lens of lenses) {
        assert.ok(lens.pitch.length > 50 && lens.honestGaps.length >= 1);
        assert.ok(lens.evidence.entries > 0);
        assert.equal(lens.evidence.entries, lens.evidence.experience + lens.evidence.projects + lens.evidence.community + lens.evidence.education);
      }
      if (locale !== 'en')
        assert.ok(
          lenses.every((l) => l.translated),
          `lenses are translated into ${locale}`,
        );
    }
  });
});

describe('get_lens GET /api/v1/lenses/{id}', () => {
  it('answers each lens in every locale exactly as list_lenses has it', async () => {
    for (const locale of ['en', 'ja', 'zh-hant']) {
      const { lenses } = listLenses.output.parse((await json(`/api/v1/lenses?locale=${locale}`)).body);
      for (const id of lensIds) {
        const { res, body } = await json(`/api/v1/lenses/${id}?locale=${locale}`);
        assert.equal(res.status, 200, `${id} ${locale}`);
        assert.deepEqual(
          getLens.output.parse(body),
          lenses.find((l) => l.id === id),
        );
      }
    }
  });

  it('answers 404 for an id that is no lens, in the words every door uses, and 400 for a bad locale', async () => {
    const body = await expectError('/api/v1/lenses/astronaut', 404, 'not_found');
    assert.equal(body.message, `No lens with id "astronaut": id must be one of: ${lensIds.join(', ')}.`);
    await expectError('/api/v1/lenses/head-of-ai?locale=klingon', 400, 'bad_request');
  });
});

describe('get_document GET /api/v1/documents/{name}', () => {
  it('serves the five documents, translated into every locale', async () => {
    for (const name of documentNames) {
      for (const locale of locales) {
        const { res, body } = await json(`/api/v1/documents/${name}?locale=${locale}`);
        assert.equal(res.status, 200);
        const doc = getDocument.output.parse(body);
        assert.equal(doc.translated, true, `${name} ${locale}`);
      }
    }
  });

  it('answers 404 for an unknown document name', async () => {
    const body = await expectError('/api/v1/documents/diary', 404, 'not_found');
    assert.equal(body.message, 'No document with name "diary": name must be one of: profile, credentials, capabilities, talks, thinking.');
  });
});

describe('get_brief GET /api/v1/brief', () => {
  it('serves Markdown by default and JSON on Accept: application/json', async () => {
    const res = await service.get('/api/v1/brief');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/markdown/);
    assert.match(res.headers.get('vary')!, /Accept/);
    const markdown = await res.text();
    assert.match(markdown, /fictional/i);
    const { body } = await json('/api/v1/brief?locale=fr', { headers: { Accept: 'application/json' } });
    const brief = getBrief.output.parse(body);
    assert.equal(brief.translated, true);
    assert.notEqual(brief.markdown, markdown);
  });
});

describe('search_subject GET /api/v1/search', () => {
  it('returns passages with slugs, best first', async () => {
    const { body } = await json('/api/v1/search?q=hotel%20guest%20assistant');
    const parsed = searchSubject.output.parse(body);
    assert.ok(parsed.results.length > 0 && parsed.results.length <= 10);
    const scores = parsed.results.map((r) => r.score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
    );
  });

  it("takes the query's locale, gives each result a confidence, and returns nothing the profile does not hold", async () => {
    const { body } = await json(`/api/v1/search?q=${encodeURIComponent('traductions bénévoles')}&locale=fr&limit=3`);
    const parsed = searchSubject.output.parse(body);
    assert.equal(parsed.results[0]?.slug, 'libera-tradukado-volunteer');
    assert.match(parsed.results[0].url, /\/fr\/entries\//);
    for (const r of parsed.results) assert.ok(r.confidence > 0.5 && r.confidence <= 1, `${r.slug} ${r.confidence}`);
    const none = await json(`/api/v1/search?q=${encodeURIComponent('Has she worked in shipbuilding?')}`);
    assert.deepEqual(none.body.results, []);
    await expectError('/api/v1/search?q=hotel&locale=xx', 400, 'bad_request');
  });

  it('honours limit between 1 and 50 and rejects 0, 51 and a missing q', async () => {
    const { body } = await json('/api/v1/search?q=ai&limit=3');
    assert.ok(body.results.length <= 3);
    await expectError('/api/v1/search?q=ai&limit=0', 400, 'bad_request');
    await expectError('/api/v1/search?q=ai&limit=51', 400, 'bad_request');
    await expectError('/api/v1/search?q=ai&limit=ten', 400, 'bad_request');
    const missing = await expectError('/api/v1/search', 400, 'bad_request');
    assert.equal(missing.errors[0].pointer, '/q', 'the problem names the REST parameter');
    await expectError('/api/v1/search?q=%20%20', 400, 'bad_request');
  });

  it('takes the query as q only: "query", the tool argument’s name, is not a second name for it', async () => {
    const misnamed = await expectError('/api/v1/search?query=hotel', 400, 'bad_request');
    assert.equal(misnamed.message, 'q is required (the query parameter is "q"; "query" is not its name).');
    assert.equal(misnamed.errors[0].pointer, '/q');
    // Beside q, it is an unknown parameter, ignored as a public read ignores any other.
    const both = await json('/api/v1/search?q=hotel&query=shipbuilding');
    assert.equal(both.res.status, 200);
    assert.equal(both.body.query, 'hotel');
    const twice = await expectError('/api/v1/search?q=a&q=b', 400, 'bad_request');
    assert.equal(twice.message, 'Query parameter "q" is given more than once.');
  });
});

describe('locales', () => {
  it('takes a locale in any case, as BCP 47 tags are, and answers with the canonical lower-case code', async () => {
    for (const [given, locale] of [
      ['zh-Hant', 'zh-hant'],
      ['ZH-HANT', 'zh-hant'],
      ['FR', 'fr'],
      ['Ja', 'ja'],
    ]) {
      const { res, body } = await json(`/api/v1/entries/concierge-copilot?locale=${given}`);
      assert.equal(res.status, 200, given);
      assert.equal(body.locale, locale, given);
      assert.equal(body.translated, true, given);
    }
    const brief = await json('/api/v1/brief?locale=zh-Hant', { headers: { Accept: 'application/json' } });
    assert.equal(brief.body.locale, 'zh-hant');
    const search = await json('/api/v1/search?q=hotel&locale=FR');
    assert.equal(search.res.status, 200);
    const unknown = await expectError('/api/v1/lenses?locale=DE', 400, 'bad_request');
    assert.match(unknown.message, /locale must be one of: en, zh, zh-hant, ja, fr, es, eo/);
  });
});

describe('HTTP behaviour', () => {
  it('answers unknown routes with 404 in the error shape, and wrong methods with 405', async () => {
    await expectError('/api/v1/nothing-here', 404, 'not_found');
    await expectError('/api/v2/entries', 404, 'not_found');
    const res = await service.get('/api/v1/entries', { method: 'DELETE' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET, HEAD');
    assert.equal((await service.get('/api/v1/entries', { method: 'HEAD' })).status, 200, 'HEAD is answered, as Allow says');
  });

  it('sends CORS headers on GET and answers the preflight', async () => {
    const res = await service.get('/api/v1/entries');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const error = await service.get('/api/v1/entries?tag=x');
    assert.equal(error.headers.get('access-control-allow-origin'), '*');
    const preflight = await service.get('/api/v1/entries', {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'if-none-match' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-headers')!, /If-None-Match/i);
  });

  it('sends an ETag from the build and answers 304 to a matching If-None-Match', async () => {
    const first = await service.get('/api/v1/entries/concierge-copilot');
    const etag = first.headers.get('etag');
    assert.ok(etag);
    const again = await service.get('/api/v1/entries/concierge-copilot', { headers: { 'If-None-Match': etag } });
    assert.equal(again.status, 304);
    const other = await service.get('/api/v1/entries/concierge-copilot', { headers: { 'If-None-Match': '"something-else"' } });
    assert.equal(other.status, 200);
    const brief = await service.get('/api/v1/brief', { headers: { 'If-None-Match': etag } });
    assert.equal(brief.status, 200, 'the Markdown representation has its own ETag');
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await service.get('/api/v1/lenses', { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '');
  });

  it('serves the dev build on the preview listener', async () => {
    const res = await fetch(`${service.devUrl}/api/v1/entries/concierge-copilot`);
    const body = await res.json();
    assert.equal(body.url, 'http://dev.vitae.test/entries/concierge-copilot');
    const health = await (await fetch(`${service.devUrl}/api/health`)).json();
    assert.equal(health.branch, 'dev');
  });
});

describe('GET /api/health', () => {
  it('reports liveness and configuration without secrets', async () => {
    const { res, body } = await json('/api/health');
    assert.equal(res.status, 200);
    assert.equal(body.status, 'ok');
    assert.equal(body.branch, 'main');
    assert.match(body.content.commit, /^[0-9a-f]{40}$/);
    assert.ok(body.content.entries >= 24);
    assert.equal(body.chat.configured, false);
    assert.equal(body.repo.backend, 'local');
    assert.equal(typeof body.uptimeSeconds, 'number');
  });
});
