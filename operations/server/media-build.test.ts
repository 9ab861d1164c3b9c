// Images in the profile, through HTTP on both backends: front matter refers to an uploaded image (an entry's cover
// and gallery, the subject's portrait) with alt text; a build gives each with its size and variants; the variants are
// served immutable, made once; a reference to an image that is not there, or a missing alt, is a problem like any
// other, and so is deleting an image still in use.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { backends, startServiceOn, type BackendService } from '../../testing/backend-service.ts';
import { adminHttp, assertError, assertOk, eventually } from '../../testing/admin-http.ts';
import { contentGit } from '../../testing/content-git.ts';
import { makeImage } from '../../testing/test-images.ts';
import { sniffImage } from './image-check.server.ts';
import { sourceHashOfText } from '../content/source-hash.ts';

const TOKEN = 'media-build-admin-token-0123456789abc';
const COVER = 'content/media/cover-test.jpg';
const SECOND = 'content/media/second-test.png';

/** An entry's text with `images` (YAML lines) added to its front matter. */
const withImages = (text: string, images: string) => text.replace(/^---\n/, `---\n${images}\n`);

for (const backend of backends) {
  describe(`images in the profile on ${backend}`, () => {
    let service: BackendService;
    let api: ReturnType<typeof adminHttp>;
    let slug: string;
    let entryPath: string;
    let english: string;
    before(async () => {
      service = await startServiceOn(backend, { ADMIN_TOKEN: TOKEN });
      api = adminHttp(() => service.url, TOKEN);
      // An entry the demo shows no image for.
      slug = (await (await service.get('/api/v1/entries')).json()).entries.find((e: { cover?: unknown }) => !e.cover).slug;
      const file = assertOk(await api.get(`/api/admin/file?slug=${slug}&branch=dev`));
      entryPath = file.path;
      english = file.content;
      for (const [path, bytes] of [
        [COVER, await makeImage('jpeg', 1800, 1000, '#aa5533')],
        [SECOND, await makeImage('png', 500, 400, '#3355aa')],
      ] as const) {
        assertOk(await api.post('/api/admin/media', { path, contentBase64: bytes.toString('base64'), message: `Add ${path}`, branch: 'dev' }));
      }
    });
    after(async () => {
      await service?.stop();
    });

    const devEntry = async (locale = 'en') => await (await fetch(`${service.devUrl}/api/v1/entries/${slug}?locale=${locale}`)).json();
    /** A record's image URL, on this test's dev listener. */
    const local = (url: string) => url.replace('http://dev.vitae.test', service.devUrl);

    it('an entry names its cover and gallery with alt text, and the build gives their size and variants', async () => {
      const file = assertOk(await api.get(`/api/admin/file?path=${entryPath}&branch=dev`));
      const text = withImages(
        english,
        `cover:\n  path: ${COVER}\n  alt: A terracotta square, the test cover\ngallery:\n  - path: ${SECOND}\n    alt: A blue square`,
      );
      assertOk(await api.put({ path: entryPath, content: text, message: 'Cover and gallery', branch: 'dev', sha: file.sha }));
      const entry = await eventually('the build with the cover', async () => ((await devEntry()).cover ? await devEntry() : undefined));
      assert.equal(entry.cover.path, COVER);
      assert.equal(entry.cover.alt, 'A terracotta square, the test cover');
      assert.deepEqual([entry.cover.width, entry.cover.height], [1600, 889]);
      assert.deepEqual(
        entry.cover.sources.map((s: any) => s.type),
        ['image/avif', 'image/webp'],
      );
      assert.deepEqual(
        entry.cover.sources[0].srcset.split(', ').map((part: string) => Number(part.split(' ')[1]!.slice(0, -1))),
        [320, 640, 960, 1280, 1600],
      );
      assert.deepEqual(
        entry.gallery.map((g: any) => [g.alt, g.width, g.height]),
        [['A blue square', 500, 400]],
      );
      assert.match(entry.gallery[0].sources[1].srcset, /^http:\/\/dev\.vitae\.test\/media\/[0-9a-f]{16}-320\.webp 320w, \S+-500\.webp 500w$/);
      // The list gives the cover too (not the gallery: it is the entry's page's).
      const listed = (await (await fetch(`${service.devUrl}/api/v1/entries`)).json()).entries.find((e: any) => e.slug === slug);
      assert.equal(listed.cover.url, entry.cover.url);
      assert.equal(listed.gallery, undefined);
    });

    it('serves each variant immutable, in its format and width, made once', async () => {
      const entry = await devEntry();
      const avif640 = local(entry.cover.sources[0].srcset.split(', ')[1]!.split(' ')[0]);
      const made = service.services.media.counts.made;
      const first = await fetch(avif640);
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('content-type'), 'image/avif');
      assert.match(first.headers.get('cache-control')!, /immutable/);
      const bytes = Buffer.from(await first.arrayBuffer());
      assert.deepEqual(sniffImage(bytes), { type: 'image/avif' });
      assert.equal((await sharp(bytes).metadata()).width, 640);
      assert.equal(service.services.media.counts.made, made + 1);
      const again = await fetch(avif640);
      assert.deepEqual(Buffer.from(await again.arrayBuffer()), bytes);
      assert.equal(service.services.media.counts.made, made + 1, 'a variant is made once');
      assert.equal((await fetch(avif640, { headers: { 'If-None-Match': first.headers.get('etag')! } })).status, 304);
      const webp = await fetch(local(entry.cover.url));
      assert.equal(webp.headers.get('content-type'), 'image/webp');
      assert.equal((await sharp(Buffer.from(await webp.arrayBuffer())).metadata()).width, 1600);
      // Only the widths and formats offered: no resizing on demand.
      assert.equal((await fetch(avif640.replace('-640.', '-641.'))).status, 404);
      assert.equal((await fetch(avif640.replace('.avif', '.png'))).status, 404);
      assert.equal((await fetch(`${service.url}/media/0123456789abcdef-320.webp`)).status, 404);
    });

    it('translates the alt text: coverAlt and galleryAlts in a translation', async () => {
      const file = assertOk(await api.get(`/api/admin/file?path=${entryPath}&branch=dev`));
      const source = sourceHashOfText(entryPath, file.content)!;
      const translationPath = entryPath.replace('content/', 'content/i18n/fr/');
      const current = await api.get(`/api/admin/file?path=${translationPath}&branch=dev`);
      const translation = `---\nsource: ${source}\ncoverAlt: Un carré terre cuite, la couverture de test\ngalleryAlts:\n  - Un carré bleu\n---\nAperçu.\n`;
      assertOk(
        await api.put({
          path: translationPath,
          content: translation,
          message: 'French alt texts',
          branch: 'dev',
          ...(current.status === 200 ? { sha: current.body.sha } : {}),
        }),
      );
      const french = await eventually('the French alt', async () => {
        const entry = await devEntry('fr');
        return entry.cover?.alt?.startsWith('Un carré') ? entry : undefined;
      });
      assert.equal(french.gallery[0].alt, 'Un carré bleu');
      assert.equal(french.cover.url, (await devEntry()).cover.url, 'the same image in every locale');
      // A translation whose gallery alts do not line up with the English gallery is refused.
      const refused = await api.put({
        path: translationPath,
        content: translation.replace('  - Un carré bleu\n', '  - Un carré bleu\n  - De trop\n'),
        message: 'One alt too many',
        branch: 'dev',
        sha: assertOk(await api.get(`/api/admin/file?path=${translationPath}&branch=dev`)).sha,
      });
      assertError(refused, 422, 'invalid');
      assert.match(refused.text, /galleryAlts has 2 items but the English has 1/);
    });

    it('gives the subject’s portrait, with its alt in the requested locale', async () => {
      const site = assertOk(await api.get('/api/admin/file?path=content/site.json&branch=dev'));
      const data = JSON.parse(site.content);
      data.subject.portrait = { path: SECOND, alt: 'A blue square standing in for a face', altTranslations: { fr: 'Un carré bleu à la place d’un visage' } };
      assertOk(await api.put({ path: 'content/site.json', content: `${JSON.stringify(data, null, 2)}\n`, message: 'Portrait', branch: 'dev', sha: site.sha }));
      const portrait = await eventually('the new portrait', async () => {
        const shown = (await (await fetch(`${service.devUrl}/api/v1/site?locale=fr`)).json()).subject.portrait;
        return shown?.path === SECOND ? shown : undefined;
      });
      assert.equal(portrait.alt, 'Un carré bleu à la place d’un visage');
      assert.deepEqual([portrait.width, portrait.height], [500, 400]);
      const english = (await (await fetch(`${service.devUrl}/api/v1/site?locale=ja`)).json()).subject.portrait;
      assert.equal(english.alt, 'A blue square standing in for a face', 'a locale without its own alt gets the English');
    });

    it('refuses an image that is not there, a missing alt, and deleting an image in use, naming each', async () => {
      const file = assertOk(await api.get(`/api/admin/file?path=${entryPath}&branch=dev`));
      const missing = await api.put({
        path: entryPath,
        content: file.content.replace(COVER, 'content/media/never-uploaded.jpg'),
        message: 'A cover that is not there',
        branch: 'dev',
        sha: file.sha,
      });
      assertError(missing, 422, 'invalid');
      assert.match(missing.text, /image \\"content\/media\/never-uploaded\.jpg\\" does not exist: upload it/);
      const noAlt = await api.put({
        path: entryPath,
        content: file.content.replace(/^ {2}alt: A terracotta square.*\n/m, ''),
        message: 'No alt',
        branch: 'dev',
        sha: file.sha,
      });
      assertError(noAlt, 422, 'invalid');
      assert.match(noAlt.text, /cover\.alt is required/);
      const notMedia = await api.put({
        path: entryPath,
        content: file.content.replace(COVER, 'content/brief.md'),
        message: 'Not an image',
        branch: 'dev',
        sha: file.sha,
      });
      assertError(notMedia, 422, 'invalid');
      assert.match(notMedia.text, /must be the path of an image under content\/media\//);
      const deleted = await api.call('DELETE', '/api/admin/file', { body: { path: SECOND, message: 'Remove an image in use', branch: 'dev' } });
      assertError(deleted, 422, 'invalid');
      assert.match(deleted.text, new RegExp(`${entryPath.replace(/[/.]/g, '\\$&')}[^]*image \\\\"${SECOND.replace(/[/.]/g, '\\$&')}\\\\" does not exist`));
    });
  });
}

describe('an image pushed from outside', () => {
  let service: BackendService;
  before(async () => {
    service = await startServiceOn('local', { ADMIN_TOKEN: TOKEN });
  });
  after(async () => {
    await service?.stop();
  });

  it('fails the build of a commit whose image cannot be read, naming the file, and leaves the live build as it was', async () => {
    const repo = contentGit(service.dataDir);
    const api = adminHttp(() => service.url, TOKEN);
    const entry = assertOk(await api.get('/api/admin/file?path=content/corpus/projects/concierge-copilot.md&branch=dev'));
    const live = (await (await fetch(`${service.devUrl}/api/v1/site`)).json()).content.commit;
    repo.commitOutside(
      'dev',
      [
        { path: 'content/media/broken.png', content: 'these bytes are not a PNG\n' },
        { path: entry.path, content: entry.content.replace(/^cover:\n {2}path: \S+$/m, 'cover:\n  path: content/media/broken.png') },
      ],
      'a broken image, pushed from outside',
    );
    const failed = await eventually('the failed run', async () => {
      const runs = assertOk(await api.get('/api/admin/deploys?branch=dev')).runs as any[];
      return runs.find((run) => run.status === 'failure');
    });
    assert.match(JSON.stringify(failed), /content\/media\/broken\.png: the image cannot be read/);
    assert.equal((await (await fetch(`${service.devUrl}/api/v1/site`)).json()).content.commit, live, 'the previous build stays live');
    // And a promote of that dev is refused for what the text checks find, before any build: here nothing, as the
    // reference itself resolves; a reference to an image that is not there is refused (below).
    repo.commitOutside('dev', [{ path: 'content/media/broken.png', delete: true }], 'the image removed, the reference left');
    const promote = await api.post('/api/admin/promote', {});
    assertError(promote, 422, 'invalid');
    assert.match(promote.text, /image \\"content\/media\/broken\.png\\" does not exist/);
  });
});
