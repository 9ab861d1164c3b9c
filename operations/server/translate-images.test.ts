// An entry's alt texts go to the translator with its other fields (coverAlt, galleryAlts in the gallery's order),
// come back into a translation that is current and valid, and a locale's record then shows them; an entry without
// images asks for none, and its hash is the one it had before images existed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadContent } from '../content/tree.ts';
import { readContentDir } from '../repo/local-repo.server.ts';
import { sourceHash } from '../content/source-hash.ts';
import { translatableFields } from '../content/schema.ts';
import { translationText } from '../content/translation-text.ts';
import { localeRecords } from '../corpus/corpus.ts';
import { translationJob } from './translate.server.ts';

const PATH = 'content/corpus/projects/concierge-copilot.md';

describe('alt texts in translation', async () => {
  const files = await readContentDir('content');
  const { model } = loadContent(files);
  const entry = model!.entries.get('concierge-copilot')!;

  it('asks for the cover’s and the gallery’s alt texts, in order, beside the other fields', () => {
    const job = translationJob({ ...entry, kind: 'entry' }, 'ja');
    assert.equal(job.fields.coverAlt, entry.fields.cover!.alt);
    assert.deepEqual(
      job.fields.galleryAlts,
      entry.fields.gallery!.map((image) => image.alt),
    );
    assert.equal(job.fields.title, entry.fields.title);
    const plain = [...model!.entries.values()].find((e) => !e.fields.cover && !e.fields.gallery)!;
    const asked = translationJob({ ...plain, kind: 'entry' }, 'fr');
    assert.equal('coverAlt' in asked.fields || 'galleryAlts' in asked.fields, false, 'an entry without images asks for no alt text');
  });

  it('keeps the hash an entry without images had before images existed', () => {
    const plain = [...model!.entries.values()].find((e) => !e.fields.cover && !e.fields.gallery)!;
    const before = translatableFields.entry.filter((name) => name !== 'coverAlt' && name !== 'galleryAlts').map((name) => (plain.fields as any)[name] ?? null);
    assert.equal(
      sourceHash('entry', plain.fields as any, plain.body),
      createHash('sha256')
        .update(JSON.stringify([before, plain.body.trim()]))
        .digest('hex')
        .slice(0, 16),
    );
  });

  it('a translation written with the translated alt texts is current, and the record in its locale shows them', () => {
    const job = translationJob({ ...entry, kind: 'entry' }, 'fr');
    const translated = Object.fromEntries(
      Object.entries(job.fields).map(([key, value]) => [key, Array.isArray(value) ? value.map((v) => `[fr] ${v}`) : `[fr] ${String(value)}`]),
    );
    const text = translationText(job.hash, translated, `[fr] ${job.body}`);
    const changed = new Map(files).set(PATH.replace('content/', 'content/i18n/fr/'), text);
    const result = loadContent(changed);
    assert.deepEqual(result.problems, []);
    const record = localeRecords(
      result.model!,
      'fr',
      'http://site',
      new Map([
        [entry.fields.cover!.path, { sha: 'a'.repeat(40), type: 'image/webp', width: 1600, height: 900 }],
        ...entry.fields.gallery!.map((g) => [g.path, { sha: 'b'.repeat(40), type: 'image/webp' as const, width: 1200, height: 800 }] as const),
      ]),
    );
    const shown = record.entryBySlug.get('concierge-copilot')!;
    assert.equal(shown.translated, true);
    assert.equal(shown.cover!.alt, `[fr] ${entry.fields.cover!.alt}`);
    assert.deepEqual(
      shown.gallery.map((g) => g.alt),
      entry.fields.gallery!.map((g) => `[fr] ${g.alt}`),
    );
    assert.ok(readFileSync(PATH, 'utf8').includes('cover:'));
  });
});
