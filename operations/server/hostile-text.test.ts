// Text that once made a step slow, through the admin API of a real service: a body of "*a " as long as a content file
// may be (its build ran for 458 s at 500 kB and held every later run), one of "a " (quadratic in word analysis), and
// one of one-letter paragraphs are validated, previewed, committed and published, and then served and found. That
// each step is linear is shown beside the code (analyse.test.ts, markdown.test.ts) by counting its work, and its
// time is in `npm run bench -- text`; here, that a run over such text succeeds and the next run is not held behind it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { limits } from '../contract/limits.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { adminHttp, assertOk } from '../../testing/admin-http.ts';

const TOKEN = 'hostile-text-token-7c41d09e3b25f6a8';
let service: TestService;
const api = adminHttp(() => service.url, TOKEN);
const PATH = 'content/corpus/projects/concierge-copilot.md';
const SLUG = 'concierge-copilot';

before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN });
});
after(() => service.stop());

/** The entry with `body` instead of its own, the whole file as long as a content file may be. */
async function withBody(unit: string, word: string): Promise<{ content: string; body: string }> {
  const current = assertOk(await api.get(`/api/admin/file?path=${PATH}`)).content as string;
  const frontMatter = current.slice(0, current.indexOf('\n---\n', 4) + 5);
  const room = limits.contentFile - frontMatter.length - word.length - 1;
  const body = `${word} ${unit.repeat(Math.ceil(room / unit.length)).slice(0, room)}`;
  return { content: frontMatter + body, body };
}

describe('hostile text through the admin API', () => {
  for (const [name, unit, word] of [
    ['emphasis openers "*a "', '*a ', 'zanzibarite'],
    ['one-letter words "a "', 'a ', 'quokkaflower'],
    ['one-letter paragraphs', 'a\n\n', 'xylophonist'],
  ] as const) {
    it(`${name}, a whole content file of it: validated, previewed, published, served and found`, async () => {
      const { content, body } = await withBody(unit, word);
      assert.equal(content.length, limits.contentFile);
      assert.deepEqual(assertOk(await api.post('/api/admin/validate', { path: PATH, content })), { valid: true, problems: [] });
      const preview = assertOk(await api.post('/api/admin/preview', { path: PATH, content, locale: 'en' }));
      assert.equal(preview.entry.overview, body.trim());
      assertOk(await api.put({ path: PATH, content, message: `hostile text: ${name}` }));
      await service.services.pipeline.idle();
      const [run] = service.services.pipeline.list('main', 1);
      assert.equal(run!.status, 'success', run!.error);
      const entry = await (await fetch(`${service.url}/api/v1/entries/${SLUG}`)).json();
      assert.equal(entry.overview, body.trim());
      const found = await (await fetch(`${service.url}/api/v1/search?q=${word}`)).json();
      assert.equal(found.results[0]?.slug, SLUG, JSON.stringify(found).slice(0, 300));
    });
  }

  it('a run after them publishes: none of their builds holds it', async () => {
    const current = assertOk(await api.get(`/api/admin/file?path=${PATH}`)).content as string;
    const content = current.replace(/\n---\n[\s\S]*$/, '\n---\nA short overview again, found by the word pangolinesque.\n');
    assertOk(await api.put({ path: PATH, content, message: 'ordinary text again' }));
    await service.services.pipeline.idle();
    const runs = service.services.pipeline.list('main', 4);
    assert.ok(
      runs.every((run) => run.status === 'success'),
      JSON.stringify(runs.map((r) => [r.status, r.error])),
    );
    const found = await (await fetch(`${service.url}/api/v1/search?q=pangolinesque`)).json();
    assert.equal(found.results[0]?.slug, SLUG);
  });
});
