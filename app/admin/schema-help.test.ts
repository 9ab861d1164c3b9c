// The editor's help comes from admin_schema alone: kinds from path patterns, completions of keys and of
// allowed values (kinds' enums, existing skills), problems placed on the lines they belong to.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../testing/service.ts';
import { completionsAt, fieldsOf, kindOfPath, problemsOnLines } from './schema-help.ts';
import type { ContentSchemaOut } from './types.ts';

let service: TestService;
let schema: ContentSchemaOut;
before(async () => {
  service = await startTestService({ ADMIN_TOKEN: 'schema-help-token-0123456789' });
  schema = (await (await service.get('/api/admin/schema', { headers: { Authorization: 'Bearer schema-help-token-0123456789' } })).json()) as ContentSchemaOut;
});
after(() => service.stop());

const entry = ['---', 'title: "A"', 'organisation: Org', 'tags: [ai, eng', 'skills:', '  - pyt', '---', 'Body'].join('\n');
const at = (text: string, marker: string) => text.indexOf(marker) + marker.length;

describe('schema help', () => {
  it('knows each file’s kind from the schema’s path patterns', () => {
    assert.equal(kindOfPath(schema, 'content/corpus/projects/x.md')?.kind.kind, 'entry');
    assert.equal(kindOfPath(schema, 'content/lenses/head-of-ai.md')?.kind.kind, 'lens');
    assert.equal(kindOfPath(schema, 'content/site.json')?.kind.kind, 'site');
    assert.deepEqual(kindOfPath(schema, 'content/i18n/ja/skills/python.md')?.translation, 'ja');
    assert.equal(kindOfPath(schema, 'content/elsewhere/x.md'), undefined);
    assert.deepEqual(
      fieldsOf(schema, 'content/i18n/fr/lenses/head-of-ai.md').map((f) => f.name),
      ['source', 'title', 'honestGaps'],
    );
  });

  it('completes the keys a file does not have yet, at the start of a front-matter line', () => {
    const text = entry.replace('organisation: Org', 'organisation: Org\nsu');
    const result = completionsAt(schema, 'content/corpus/projects/x.md', text, at(text, '\nsu'))!;
    assert.ok(result.options.some((o) => o.label === 'summary' && o.apply === 'summary: '));
    assert.ok(!result.options.some((o) => o.label === 'title'), 'a key already present is not offered again');
    assert.equal(completionsAt(schema, 'content/corpus/projects/x.md', entry, at(entry, 'Bod')), null, 'nothing in the body');
  });

  it('completes allowed values in inline lists, block lists and scalars', () => {
    const path = 'content/corpus/projects/x.md';
    assert.deepEqual(
      completionsAt(schema, path, entry, at(entry, 'tags: [ai, eng'))!.options.map((o) => o.label),
      ['engineering'],
    );
    assert.ok(
      completionsAt(schema, path, entry, at(entry, '  - pyt'))!.options.some((o) => o.label === 'python'),
      'existing skills',
    );
    const skill = '---\nname: X\ncategory: eng\n---\nBody\n';
    assert.deepEqual(
      completionsAt(schema, 'content/skills/x.md', skill, at(skill, 'category: eng'))!.options.map((o) => o.label),
      ['engineering'],
    );
  });

  it('puts problems on their lines, by line or by field, and keeps other files’ problems apart', () => {
    const { here, elsewhere } = problemsOnLines(
      [
        { path: 'content/corpus/projects/x.md', line: 4, message: 'tags must be one of…' },
        { path: 'content/corpus/projects/x.md', pointer: '/skills/0', message: 'skill "pyt" does not exist' },
        { path: 'content/i18n/ja/corpus/projects/x.md', message: 'translation of a missing file' },
      ],
      'content/corpus/projects/x.md',
      entry,
    );
    assert.deepEqual(
      here.map((p) => p.line),
      [4, 5],
    );
    assert.equal(elsewhere.length, 1);
  });
});
