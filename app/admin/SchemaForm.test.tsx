// The form is generated from each kind's JSON Schema, made from the real zod schemas exactly as admin_schema
// makes them: every field has a labelled control with no UI code per kind (a field added to a schema shows
// up), titles from the vocabulary beside ids, month pickers for periods, problems beside their fields.
// Rendered with react-dom/server: node's tests have no DOM.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { z } from 'zod';
import * as content from '../../operations/content/schema.ts';
import { lensIds, locales, tags } from '../../operations/contract/vocabulary.ts';
import { SchemaForm, type FormProblem, type JsonSchema, type SchemaFormProps, type Vocabulary } from './SchemaForm.tsx';
import { emptyValue, humanise, isDatePattern, isMonthPattern, noneLabel, pointerSegments, rulesOf, singular, widgetFor } from './schema-widgets.ts';
import { readSource } from './source-doc.ts';
import { jsonSchemaOf } from '../../operations/server/content-schema.server.ts';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readSource(path, readFileSync(new URL(path, root), 'utf8'));

/**
 * A kind's JSON Schema as admin_schema serves it (the service's own function), or, without descriptions, one with
 * no metadata at all: the form must still label every field, with `x-vocabulary` the one hint it gets.
 */
function jsonSchema(schema: z.ZodType, options: { descriptions?: boolean } = {}): JsonSchema {
  if (options.descriptions !== false) return jsonSchemaOf(schema);
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', metadata: z.registry() }) as JsonSchema;
  const vocab: Record<string, string> = { tags: 'tags', lenses: 'lenses', skills: 'skills', defaultLocale: 'locales' };
  for (const [name, property] of Object.entries(json.properties ?? {})) if (vocab[name]) property['x-vocabulary'] = vocab[name];
  return json;
}

const skills = readdirSync(new URL('content/skills/', root))
  .map((f) => f.replace(/\.md$/, ''))
  .sort();
const vocabulary: Vocabulary = {
  tags: tags.map((t) => ({ value: t, label: humanise(t) })),
  lenses: lensIds.map((id) => ({ value: id, label: String(read(`content/lenses/${id}.md`).data!.title) })),
  skills: skills.map((s) => ({ value: s, label: String(read(`content/skills/${s}.md`).data!.name) })),
  locales: locales.map((l) => ({ value: l, label: { en: 'English', fr: 'French' }[l as 'en'] ?? l })),
};

function render(props: Partial<SchemaFormProps> & { schema: JsonSchema; value: Record<string, unknown> }): string {
  return renderToStaticMarkup(<SchemaForm idPrefix="f" vocabulary={vocabulary} problems={[]} onChange={() => {}} {...props} />);
}

/** assert.match without the whole page in the message. */
const has = (html: string, pattern: RegExp, message?: string) => assert.ok(pattern.test(html), message ?? `no match for ${pattern}`);
const hasNot = (html: string, pattern: RegExp, message?: string) => assert.ok(!pattern.test(html), message ?? `unexpected match for ${pattern}`);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const idOf = (pointer: Array<string | number>) =>
  `f-${pointer.map((s) => String(s).replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)).join('.')}`;
/** The opening tag of the element with this id, as name and attributes. */
function element(html: string, id: string): { tag: string; attrs: Record<string, string> } | undefined {
  const match = new RegExp(`<(\\w+)((?:\\s[^>]*)?\\sid="${escape(id)}"(?:\\s[^>]*)?)>`).exec(html);
  if (!match) return undefined;
  const attrs = Object.fromEntries([...match[2]!.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map((m) => [m[1]!, m[2] ?? '']));
  return { tag: match[1]!, attrs };
}
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');
/** The accessible name a control gets from its <label for> or, for a group, its legend. */
function nameOf(html: string, id: string): string | undefined {
  const label = new RegExp(`<label[^>]*for="${escape(id)}"[^>]*>(.*?)</label>`, 's').exec(html)?.[1];
  if (label !== undefined) return text(label);
  const legend = new RegExp(`<fieldset[^>]*id="${escape(id)}"[^>]*><legend>(.*?)</legend>`, 's').exec(html)?.[1];
  return legend === undefined ? undefined : text(legend);
}

/** Asserts every schema property has a control (or group) with the id of its pointer, named by its label. */
function assertEveryFieldLabelled(html: string, schema: JsonSchema, kind: string) {
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const id = idOf([name]);
    assert.ok(element(html, id), `${kind}: no control for ${name}`);
    const label = nameOf(html, id);
    assert.ok(label?.startsWith(property.title ?? humanise(name)), `${kind}: ${name} is labelled "${label}"`);
    if (schema.required?.includes(name)) assert.match(label!, /\* \(required\)$/, `${kind}: ${name} has no required mark`);
  }
}

const kinds: Array<[string, z.ZodType, string]> = [
  ['entry', content.EntryFields, 'content/corpus/projects/concierge-copilot.md'],
  ['lens', content.LensFields, 'content/lenses/head-of-ai.md'],
  ['skill', content.SkillFields, 'content/skills/python.md'],
  ['document', content.DocumentFields, 'content/documents/profile.md'],
  ['brief', content.BriefFields, 'content/brief.md'],
  ['site', content.SiteFile, 'content/site.json'],
  ['related terms', content.RelatedTermsFile, 'content/search/related-terms.json'],
  ['entry translation', content.EntryTranslationFields, 'content/i18n/fr/corpus/projects/concierge-copilot.md'],
  ['lens translation', content.LensTranslationFields, 'content/i18n/fr/lenses/head-of-ai.md'],
  ['skill translation', content.SkillTranslationFields, 'content/i18n/fr/skills/python.md'],
  ['document translation', content.DocumentTranslationFields, 'content/i18n/fr/documents/profile.md'],
  ['brief translation', content.BriefTranslationFields, 'content/i18n/fr/brief.md'],
];

describe('the form generated for each kind', () => {
  for (const [kind, zod, path] of kinds) {
    it(`${kind}: a labelled control for every schema field, required ones marked`, () => {
      const schema = jsonSchema(zod);
      const source = read(path);
      const html = render({ schema, value: source.data ?? {} });
      assertEveryFieldLabelled(html, schema, kind);
      hasNot(html, /Other keys/, `${kind}: a real file has no unknown keys`);
      // The exact options admin_schema uses today (no descriptions) give the same controls.
      assertEveryFieldLabelled(render({ schema: jsonSchema(zod, { descriptions: false }), value: source.data ?? {} }), schema, kind);
    });
  }

  it('shows a field added to a zod schema, with its widget, help and rules, and no UI code', () => {
    const extended = content.LensFields.extend({
      seniority: z.enum(['junior', 'senior', 'lead']).describe('How senior the role is'),
      reviewedOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      motto: z.string().max(40).optional(),
    });
    const html = render({ schema: jsonSchema(extended), value: read('content/lenses/head-of-ai.md').data! });
    assertEveryFieldLabelled(html, jsonSchema(extended), 'extended lens');
    assert.equal(element(html, idOf(['seniority']))?.tag, 'select');
    has(html, /<option value="senior">senior<\/option>/);
    has(html, /How senior the role is/);
    assert.equal(element(html, idOf(['reviewedOn']))?.attrs.type, 'date');
    assert.equal(element(html, idOf(['motto']))?.attrs.type, 'text');
    has(html, /At most 40 characters/);
  });

  it('offers tags, lenses and skills with their titles beside their ids, chosen ones checked and listed in their order', () => {
    const value = { ...read('content/corpus/projects/concierge-copilot.md').data!, skills: ['typescript', 'python'] };
    const html = render({ schema: jsonSchema(content.EntryFields), value });
    has(html, /<input type="checkbox" checked=""[^>]*\/><span class="sf-option-text"><span>Head of AI<\/span> <code>head-of-ai<\/code>/);
    has(html, /<input type="checkbox"[^>]*\/><span class="sf-option-text"><span>Engineering Manager<\/span> <code>engineering-manager<\/code>/);
    has(html, /<span>AI<\/span> <code>ai<\/code>/);
    const chosen = /<ol class="sf-chosen" aria-label="Chosen skills, in order">(.*?)<\/ol>/s.exec(html)?.[1] ?? '';
    assert.deepEqual(
      [...chosen.matchAll(/<code>([^<]+)<\/code>/g)].map((m) => m[1]),
      ['typescript', 'python'],
    );
    has(chosen, /Move Python up/);
    has(html, /Filter skills/, 'a long list can be filtered');
    hasNot(html, /Filter tags/, 'a short one needs no filter');
  });

  it('gives periods month pickers, and an ongoing end a "None (ongoing)" choice', () => {
    const schema = jsonSchema(content.EntryFields);
    const html = render({ schema, value: read('content/corpus/projects/concierge-copilot.md').data! });
    assert.deepEqual(element(html, idOf(['start']))?.attrs.type, 'month');
    assert.deepEqual(element(html, idOf(['start']))?.attrs.value, '2025-03');
    const end = element(html, idOf(['end']))!;
    assert.equal(end.attrs.type, 'month');
    assert.ok('disabled' in end.attrs, 'a null end disables the month');
    assert.ok('checked' in element(html, `${idOf(['end'])}-none`)!.attrs);
    assert.equal(nameOf(html, `${idOf(['end'])}-none`), 'None (ongoing)');
    const dated = render({ schema, value: { ...read('content/corpus/projects/concierge-copilot.md').data!, end: '2025-09' } });
    assert.equal(element(dated, idOf(['end']))?.attrs.value, '2025-09');
    assert.equal(element(render({ schema: jsonSchema(content.DocumentFields), value: {} }), idOf(['updatedAt']))?.attrs.type, 'date');
  });

  it('uses spell-checked text areas in the file’s language for prose, counters where there is a limit', () => {
    const html = render({ schema: jsonSchema(content.EntryFields), value: read('content/corpus/projects/concierge-copilot.md').data!, lang: 'fr' });
    const why = element(html, idOf(['whyItMatters']))!;
    assert.equal(why.tag, 'textarea');
    assert.equal(why.attrs.spellcheck, 'true');
    assert.equal(why.attrs.lang, 'fr');
    assert.equal(element(html, idOf(['title']))?.tag, 'input');
    assert.match(element(html, idOf(['title']))!.attrs['aria-describedby']!, /f-title-count/);
    has(html, /id="f-title-count">52 \/ 160/);
    assert.equal(element(html, idOf(['summary']))?.tag, 'textarea');
  });

  it('gives lists add, remove and move buttons named for what they do', () => {
    const html = render({ schema: jsonSchema(content.EntryFields), value: read('content/corpus/projects/concierge-copilot.md').data! });
    for (const name of ['Move contribution 1 up', 'Move contribution 4 down', 'Remove contribution 3', 'Remove proof link 1', 'Move key result 2 up'])
      has(html, new RegExp(`<span class="visually-hidden">${name}</span>`), name);
    has(html, /disabled=""[^>]*title="Move contribution 1 up"|title="Move contribution 1 up"[^>]*disabled=""/, 'the first cannot move up');
    has(html, />Add contribution</);
    assert.equal(nameOf(html, idOf(['contributions', 2])), 'Contribution 3');
    assert.equal(nameOf(html, idOf(['proofLinks', 0])), 'Proof link 1');
    assert.equal(nameOf(html, idOf(['proofLinks', 0, 'url'])), 'URL * (required)');
    assert.equal(element(html, idOf(['proofLinks', 0, 'url']))?.attrs.type, 'url');
    assert.equal(element(html, idOf(['featured']))?.attrs.type, 'checkbox');
  });

  it('gives a record a section per key, and related terms their groups', () => {
    const html = render({ schema: jsonSchema(content.RelatedTermsFile), value: { groups: { en: [['ai', 'artificial intelligence']] } } });
    has(html, /<summary>English \(en\)<\/summary>/);
    assert.equal(nameOf(html, idOf(['groups', 'en', 0, 1])), 'Group 1, item 2');
    has(html, /Remove group 1/);
    has(html, /<option value="fr">French \(fr\)<\/option>/, 'a missing locale can be added');
  });
});

describe('problems, unknown keys and read-only', () => {
  const schema = jsonSchema(content.EntryFields);
  const value = read('content/corpus/projects/concierge-copilot.md').data!;

  it('places each problem at the field its pointer names, described by it and marked invalid', () => {
    const problems: FormProblem[] = [
      { pointer: '/contributions/2', message: 'must not be empty' },
      { pointer: '/title', message: 'is too long' },
      { pointer: '/tags', message: 'has too few items' },
      { message: 'front matter looks odd' },
    ];
    const html = render({ schema, value, problems });
    const item = element(html, idOf(['contributions', 2]))!;
    assert.equal(item.attrs['aria-invalid'], 'true');
    assert.match(item.attrs['aria-describedby']!, new RegExp(`${escape(idOf(['contributions', 2]))}-problems`));
    has(html, new RegExp(`id="${escape(idOf(['contributions', 2]))}-problems"><li>must not be empty</li>`));
    assert.equal(element(html, idOf(['contributions', 1]))?.attrs['aria-invalid'], undefined);
    assert.equal(element(html, idOf(['title']))?.attrs['aria-invalid'], 'true');
    assert.equal(element(html, idOf(['tags']))?.attrs['aria-invalid'], 'true');
    has(html, /id="f-file-problems"><li>front matter looks odd<\/li>/);
  });

  it('lists keys the schema does not know as kept, to edit in the raw view', () => {
    const html = render({ schema, value: { ...value, reviewer: 'Sam', extra: { a: 1 } } });
    has(html, /Other keys \(kept; edit them in the raw view\)/);
    has(html, /<code>reviewer<\/code>: <span class="sf-preview">&quot;Sam&quot;<\/span>/);
    has(html, /<code>extra<\/code>/);
  });

  it('shows a field the value lacks as empty', () => {
    const html = render({ schema, value: {} });
    assert.equal(element(html, idOf(['title']))?.attrs.value, '');
    has(html, /No contributions yet/);
  });

  it('disables every control when read-only', () => {
    const html = render({ schema, value, readOnly: true, body: { value: 'Body', label: 'Overview (Markdown)', onChange: () => {} } });
    const controls = [...html.matchAll(/<(input|textarea|select|button)\b[^>]*>/g)].map((m) => m[0]);
    assert.ok(controls.length > 50);
    for (const control of controls) assert.match(control, /disabled=""/, control);
  });

  it('edits the Markdown body with spell-check in the file’s language', () => {
    const html = render({ schema, value, lang: 'ja', body: { value: '本文', label: 'Overview (Markdown)', onChange: () => {} } });
    assert.equal(nameOf(html, 'f-body'), 'Overview (Markdown)');
    assert.deepEqual([element(html, 'f-body')?.attrs.spellcheck, element(html, 'f-body')?.attrs.lang], ['true', 'ja']);
  });

  it('shows the English beside each field of a translation', () => {
    const english = read('content/corpus/projects/concierge-copilot.md').data!;
    const html = render({
      schema: jsonSchema(content.EntryTranslationFields),
      value: read('content/i18n/fr/corpus/projects/concierge-copilot.md').data!,
      english,
    });
    has(html, new RegExp(`id="f-title-en"><span class="sf-english-label">English:</span> <span lang="en">${escape(String(english.title))}</span>`));
    has(html, /id="f-contributions.1-en"><span class="sf-english-label">English:<\/span> <span lang="en">Designed the retrieval layer/);
    assert.match(element(html, idOf(['title']))!.attrs['aria-describedby']!, /f-title-en/);
  });
});

describe('what the schema says, read by pure functions', () => {
  it('makes field names human', () => {
    assert.equal(humanise('keyResult'), 'Key result');
    assert.equal(humanise('whyItMatters'), 'Why it matters');
    assert.equal(humanise('proofLinks'), 'Proof links');
    assert.equal(humanise('url'), 'URL');
    assert.equal(humanise('short_name'), 'Short name');
    assert.equal(humanise('zh-hant'), 'Zh hant');
    assert.equal(singular('Contributions'), 'Contribution');
    assert.equal(singular('Key results'), 'Key result');
    assert.equal(singular('Categories'), 'Category');
    assert.equal(singular('Group 3'), 'Group 3, item');
  });

  it('picks a widget from the shape alone', () => {
    const kind = (schema: JsonSchema, vocab: Vocabulary = vocabulary) => widgetFor(schema, vocab).kind;
    assert.deepEqual(widgetFor({ type: 'string', maxLength: 80 }), { kind: 'text', multiline: false, input: 'text', prose: true, rows: 1 });
    assert.equal((widgetFor({ type: 'string', maxLength: 300 }) as { multiline: boolean }).multiline, true);
    assert.equal((widgetFor({ type: 'string' }) as { multiline: boolean }).multiline, true);
    assert.equal((widgetFor({ type: 'string', maxLength: 60, description: 'Markdown: a note' }) as { multiline: boolean }).multiline, true);
    assert.deepEqual(widgetFor({ type: 'string', format: 'email' }), { kind: 'text', multiline: false, input: 'email', prose: false, rows: 1 });
    assert.equal(kind({ type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])$' }), 'month');
    assert.equal(kind({ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), 'date');
    assert.equal(kind({ type: 'string', enum: ['a', 'b'] }), 'select');
    assert.deepEqual(widgetFor({ type: 'string', 'x-vocabulary': 'locales' }, vocabulary), { kind: 'select', options: [...locales], vocabulary: 'locales' });
    assert.equal(kind({ type: 'boolean' }), 'checkbox');
    assert.equal(kind({ type: 'array', items: { type: 'string', enum: ['a'] } }), 'choices');
    assert.deepEqual(widgetFor({ type: 'array', items: { type: 'string' }, 'x-vocabulary': 'skills' }, vocabulary), {
      kind: 'choices',
      options: skills,
      vocabulary: 'skills',
    });
    assert.equal(kind({ type: 'array', items: { type: 'string' }, 'x-vocabulary': 'skills' }, {}), 'list', 'without the list, a plain list of ids');
    assert.equal(kind({ type: 'array', items: { type: 'object', properties: {} } }), 'list');
    assert.equal(kind({ type: 'object', properties: { a: { type: 'string' } } }), 'object');
    assert.equal(kind({ type: 'object', additionalProperties: { type: 'array' }, propertyNames: { enum: ['en'] } }), 'record');
    assert.deepEqual(widgetFor({ anyOf: [{ type: 'string' }, { type: 'null' }], description: 'd' }), {
      kind: 'nullable',
      inner: { description: 'd', type: 'string' },
    });
    assert.equal(kind({ anyOf: [{ type: 'string' }, { type: 'number' }] }), 'raw');
    assert.equal(kind({}), 'raw');
  });

  it('tells months and dates from their patterns', () => {
    assert.ok(isMonthPattern('^\\d{4}-(0[1-9]|1[0-2])$'));
    assert.ok(!isMonthPattern('^\\d{4}-\\d{2}-\\d{2}$'));
    assert.ok(isDatePattern('^\\d{4}-\\d{2}-\\d{2}$'));
    assert.ok(!isDatePattern('^[a-z]+$'));
    assert.ok(!isMonthPattern('(unclosed'));
  });

  it('states the rules, the "none" wording, pointers and new values', () => {
    assert.deepEqual(rulesOf({ type: 'string', minLength: 1, maxLength: 160 }), ['At most 160 characters']);
    assert.deepEqual(rulesOf({ type: 'array', minItems: 1, maxItems: 6, default: [] }), ['At least 1 item', 'At most 6 items']);
    assert.deepEqual(rulesOf({ type: 'string', enum: ['en'], default: 'en' }), ['Default: en']);
    assert.equal(noneLabel('Last month, "YYYY-MM"; null or absent while ongoing'), 'None (ongoing)');
    assert.equal(noneLabel('A date'), 'None');
    assert.deepEqual(pointerSegments('/contributions/2'), ['contributions', '2']);
    assert.deepEqual(pointerSegments('/a~1b/c~0d'), ['a/b', 'c~d']);
    assert.deepEqual(pointerSegments(undefined), []);
    const proofLink = jsonSchema(content.ProofLink);
    assert.deepEqual(emptyValue(proofLink), { label: '', url: '' });
    assert.deepEqual(emptyValue({ type: 'array' }), []);
  });
});
