// The content tree as data: every file parsed and checked on its own, then the whole tree checked for
// references (skills, lenses, translations, unique slugs). The result is a model or a list of problems.
import { z } from 'zod';
import type { Problem } from '../contract/errors.ts';
import { documentNames, lensIds, locales, type DocumentName, type Kind, type LensId, type Locale } from '../contract/shared.ts';
import { parseJsonFile, parseMarkdownFile, rememberParsedMarkdown } from './front-matter.ts';
import { corpusFolders, fileKinds, RelatedTermsFile, SiteFile, translatableFields, type FileKind } from './schema.ts';
import { sourceHash } from './source-hash.ts';
import type { Pause } from './pause.ts';

/** path (relative to the repository root, e.g. `content/brief.md`) → file text */
export type ContentFiles = ReadonlyMap<string, string>;

export type EntryFields = z.output<typeof fileKinds.entry.fields>;
export type LensFields = z.output<typeof fileKinds.lens.fields>;
export type SkillFields = z.output<typeof fileKinds.skill.fields>;
export type DocumentFields = z.output<typeof fileKinds.document.fields>;
export type BriefFields = z.output<typeof fileKinds.brief.fields>;
export type Site = z.output<typeof SiteFile>;
export type RelatedTerms = z.output<typeof RelatedTermsFile>['groups'];

export interface SourceFile<F> {
  path: string;
  fields: F;
  body: string;
  hash: string;
}
export interface EntryFile extends SourceFile<EntryFields> {
  slug: string;
  kind: Kind;
}
export interface TranslationFile {
  path: string;
  locale: Exclude<Locale, 'en'>;
  sourcePath: string;
  fields: Record<string, unknown> & { source: string };
  body: string;
  /** The English changed since this translation was made. */
  stale: boolean;
}

export interface ContentModel {
  site: Site;
  brief: SourceFile<BriefFields>;
  entries: Map<string, EntryFile>;
  lenses: Map<LensId, SourceFile<LensFields>>;
  skills: Map<string, SourceFile<SkillFields>>;
  documents: Map<DocumentName, SourceFile<DocumentFields>>;
  /** sourcePath → locale → translation */
  translations: Map<string, Map<Locale, TranslationFile>>;
  /** Related words search adds to a query (content/search/related-terms.json; none when the file is absent). */
  relatedTerms: RelatedTerms;
}

export type Located =
  | { kind: 'site' }
  | { kind: 'related-terms' }
  | { kind: FileKind; id: string; entryKind?: Kind }
  | { kind: 'translation'; locale: Exclude<Locale, 'en'>; sourcePath: string }
  | { kind: 'unknown'; reason: string };

export const RELATED_TERMS_PATH = 'content/search/related-terms.json';

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Where a path sits in the content tree, or why it has no place there. */
export function locate(path: string): Located {
  if (path === 'content/site.json') return { kind: 'site' };
  if (path === RELATED_TERMS_PATH) return { kind: 'related-terms' };
  if (path === 'content/brief.md') return { kind: 'brief', id: 'brief' };
  const i18n = /^content\/i18n\/([^/]+)\/(.+)$/.exec(path);
  if (i18n) {
    const locale = i18n[1] as Locale;
    if (!(locales as readonly string[]).includes(locale) || locale === 'en') {
      return { kind: 'unknown', reason: `"${i18n[1]}" is not a translation locale (use one of: ${locales.filter((l) => l !== 'en').join(', ')})` };
    }
    const sourcePath = `content/${i18n[2]}`;
    const target = locate(sourcePath);
    if (target.kind === 'unknown' || target.kind === 'translation' || target.kind === 'site' || target.kind === 'related-terms') {
      return { kind: 'unknown', reason: `translations mirror a source path, and "${sourcePath}" is not a translatable source file` };
    }
    return { kind: 'translation', locale: locale, sourcePath };
  }
  const m = /^content\/(corpus\/([^/]+)|lenses|skills|documents)\/([^/]+)\.md$/.exec(path);
  if (!m) return { kind: 'unknown', reason: 'not a place in the content tree (see the schema operation for the layout)' };
  const id = m[3]!;
  if (!slugPattern.test(id)) return { kind: 'unknown', reason: `"${id}" is not a slug: use lowercase letters, digits and single hyphens` };
  if (m[2] !== undefined) {
    const kind = corpusFolders[m[2] as keyof typeof corpusFolders];
    if (!kind) return { kind: 'unknown', reason: `entries live in content/corpus/{${Object.keys(corpusFolders).join(',')}}/` };
    return { kind: 'entry', id, entryKind: kind };
  }
  if (m[1] === 'lenses') {
    if (!(lensIds as readonly string[]).includes(id)) return { kind: 'unknown', reason: `"${id}" is not a lens id (one of: ${lensIds.join(', ')})` };
    return { kind: 'lens', id };
  }
  if (m[1] === 'documents') {
    if (!(documentNames as readonly string[]).includes(id)) return { kind: 'unknown', reason: `"${id}" is not a document name (one of: ${documentNames.join(', ')})` };
    return { kind: 'document', id };
  }
  return { kind: 'skill', id };
}

export interface LoadResult {
  model?: ContentModel;
  problems: Problem[];
}

/** Parses and validates a whole content tree. `model` is present only when there are no problems. */
export function loadContent(files: ContentFiles): LoadResult {
  const steps = loadSteps(files);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `loadContent` for a caller that must keep answering requests (a commit's whole-tree validation, the warm-up
 * after a start): `pause` is awaited between files. Cold (after a restart) the whole tree parsed at once held
 * requests for 0.3 s at 10× the demo's content; warm, its lookups and checks still took 0.4 s at 100×.
 */
export async function loadContentSliced(files: ContentFiles, pause: Pause): Promise<LoadResult> {
  const steps = loadSteps(files);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}

/** Each parsed file's source hash, by its fields (one object per path and text, front-matter.ts keeps them). */
const sourceHashes = new WeakMap<object, string>();

/** The order files are read in (as `localeCompare`; one collator, as a new one per comparison costs 0.3 s at 100× the demo). */
const pathOrder = new Intl.Collator();

/** The last order given (`inPathOrder`), with its paths. */
let lastOrder: { paths: string[]; set: Set<string> } | undefined;

/**
 * The paths of `files` in the order they are read. Sorting 18k paths took 28 ms at 100× the demo content, at once,
 * on every load; a tree of the same paths as the last one (a commit that changed files, not added any) reuses the
 * order.
 */
function inPathOrder(files: ContentFiles): string[] {
  if (lastOrder && lastOrder.paths.length === files.size) {
    let same = true;
    for (const path of files.keys()) {
      if (!lastOrder.set.has(path)) {
        same = false;
        break;
      }
    }
    if (same) return lastOrder.paths;
  }
  const paths = [...files.keys()].sort((a, b) => pathOrder.compare(a, b));
  lastOrder = { paths, set: new Set(paths) };
  return paths;
}

/** The work of `loadContent`, yielding after each file and each whole-tree check so a caller can pause there. */
function* loadSteps(files: ContentFiles): Generator<void, LoadResult> {
  const problems: Problem[] = [];
  let site: Site | undefined;
  let relatedTerms: RelatedTerms = {};
  let brief: SourceFile<BriefFields> | undefined;
  const entries = new Map<string, EntryFile>();
  const lenses = new Map<LensId, SourceFile<LensFields>>();
  const skills = new Map<string, SourceFile<SkillFields>>();
  const documents = new Map<DocumentName, SourceFile<DocumentFields>>();
  const pendingTranslations: Array<{ path: string; text: string; where: Extract<Located, { kind: 'translation' }> }> = [];
  const sources = new Map<string, { kind: FileKind; fields: Record<string, unknown>; body: string; hash: string }>();

  for (const path of inPathOrder(files)) {
    yield;
    const text = files.get(path)!;
    const where = locate(path);
    if (where.kind === 'unknown') {
      problems.push({ path, message: `unexpected file: ${where.reason}` });
      continue;
    }
    if (where.kind === 'site') {
      const parsed = parseJsonFile(path, text, SiteFile);
      problems.push(...parsed.problems);
      site = parsed.data;
      continue;
    }
    if (where.kind === 'related-terms') {
      const parsed = parseJsonFile(path, text, RelatedTermsFile);
      problems.push(...parsed.problems);
      if (parsed.data) relatedTerms = parsed.data.groups;
      continue;
    }
    if (where.kind === 'translation') {
      pendingTranslations.push({ path, text, where });
      continue;
    }
    const parsed = parseMarkdownFile(path, text, fileKinds[where.kind].fields);
    problems.push(...parsed.problems);
    if (!parsed.data) continue;
    const body = parsed.body.trim();
    if (!body) {
      problems.push({ path, pointer: '/body', message: `the body (${fileKinds[where.kind].body}) must not be empty` });
      continue;
    }
    const fields = parsed.data as Record<string, unknown>;
    let hash = sourceHashes.get(fields);
    if (hash === undefined) sourceHashes.set(fields, (hash = sourceHash(where.kind, fields, body)));
    const file = { path, fields, body, hash };
    sources.set(path, { kind: where.kind, ...file });
    switch (where.kind) {
      case 'entry':
        entries.set(where.id, { ...file, fields: parsed.data as EntryFields, slug: where.id, kind: where.entryKind! });
        break;
      case 'lens':
        lenses.set(where.id as LensId, file as SourceFile<LensFields>);
        break;
      case 'skill':
        skills.set(where.id, file as SourceFile<SkillFields>);
        break;
      case 'document':
        documents.set(where.id as DocumentName, file as SourceFile<DocumentFields>);
        break;
      case 'brief':
        brief = file as SourceFile<BriefFields>;
        break;
    }
  }

  // Whole-tree rules: required files, unique slugs, references.
  if (!files.has('content/site.json')) problems.push({ path: 'content/site.json', message: 'the site file is missing' });
  if (!files.has('content/brief.md')) problems.push({ path: 'content/brief.md', message: 'the brief is missing' });
  for (const name of documentNames) {
    const path = `content/documents/${name}.md`;
    if (!files.has(path)) problems.push({ path, message: `the "${name}" document is missing` });
  }
  const owners = new Map<string, string>();
  for (const [slug, path] of [
    ...[...entries].map(([s, e]) => [s, e.path] as const),
    ...[...lenses].map(([s, e]) => [s, e.path] as const),
    ...[...skills].map(([s, e]) => [s, e.path] as const),
  ]) {
    const first = owners.get(slug);
    if (first) problems.push({ path, message: `slug "${slug}" is already used by ${first}; slugs are unique across entries, lenses and skills` });
    else owners.set(slug, path);
  }
  yield;
  for (const entry of entries.values()) {
    entry.fields.skills.forEach((skill, index) => {
      if (!skills.has(skill)) {
        problems.push({ path: entry.path, pointer: `/skills/${index}`, message: `skill "${skill}" does not exist: add content/skills/${skill}.md or use an existing skill`, line: lineOfKey(files.get(entry.path)!, 'skills') });
      }
    });
  }

  const translations = new Map<string, Map<Locale, TranslationFile>>();
  for (const { path, text, where } of pendingTranslations) {
    yield;
    const source = sources.get(where.sourcePath);
    if (!source) {
      if (!files.has(where.sourcePath)) problems.push({ path, message: `translation of ${where.sourcePath}, which does not exist` });
      continue; // a broken source was reported already
    }
    const parsed = parseMarkdownFile(path, text, fileKinds[source.kind].translation);
    problems.push(...parsed.problems);
    if (!parsed.data) continue;
    const fields = parsed.data as TranslationFile['fields'];
    const list = source.fields;
    // A translated list lines up item by item with the English one (contributions, honestGaps, questions…).
    for (const key of translatableFields[source.kind]) {
      const translated = fields[key];
      const english = list[key];
      if (Array.isArray(translated) && Array.isArray(english) && translated.length !== english.length) {
        problems.push({ path, pointer: `/${key}`, message: `${key} has ${translated.length} items but the English has ${english.length}`, line: lineOfKey(text, key) });
      }
    }
    const byLocale = translations.get(where.sourcePath) ?? new Map<Locale, TranslationFile>();
    byLocale.set(where.locale, { path, locale: where.locale, sourcePath: where.sourcePath, fields, body: parsed.body.trim(), stale: fields.source !== source.hash });
    translations.set(where.sourcePath, byLocale);
  }

  if (problems.length || !site || !brief) return { problems };
  return { model: { site, brief, entries, lenses, skills, documents, translations, relatedTerms }, problems };
}

/**
 * Remembers the parse of every Markdown file of `model`, a kept build's model of `texts` (persist.ts), with each
 * source's hash: loading these files again, or a commit's tree that changed a few of them, then parses only
 * what changed. After a restart at 100× the demo content, parsing them again took 2.7 s of this thread.
 */
export async function rememberParses(model: ContentModel, texts: ContentFiles, pause: Pause): Promise<void> {
  let n = 0;
  const remember = async (path: string, schema: z.ZodType, fields: object, hash?: string) => {
    const text = texts.get(path);
    if (text === undefined) return;
    rememberParsedMarkdown(path, text, schema, fields);
    if (hash !== undefined) sourceHashes.set(fields, hash);
    if (++n % 512 === 0) await pause();
  };
  const sources: Array<[FileKind, SourceFile<object>]> = [
    ['brief', model.brief],
    ...[...model.entries.values()].map((f): [FileKind, SourceFile<object>] => ['entry', f]),
    ...[...model.lenses.values()].map((f): [FileKind, SourceFile<object>] => ['lens', f]),
    ...[...model.skills.values()].map((f): [FileKind, SourceFile<object>] => ['skill', f]),
    ...[...model.documents.values()].map((f): [FileKind, SourceFile<object>] => ['document', f]),
  ];
  const kindOf = new Map<string, FileKind>();
  for (const [kind, file] of sources) {
    kindOf.set(file.path, kind);
    await remember(file.path, fileKinds[kind].fields, file.fields, file.hash);
  }
  for (const [sourcePath, byLocale] of model.translations) {
    const kind = kindOf.get(sourcePath);
    if (!kind) continue;
    for (const translation of byLocale.values()) await remember(translation.path, fileKinds[kind].translation, translation.fields);
  }
}

/** The git modes of a regular file; anything else in a tree (a symlink, a submodule) is refused. */
export const REGULAR = new Set(['100644', '100755']);

/** Symlinks and submodules make a tree invalid: the build never follows them and the API never writes through them. */
export function irregularProblems(tree: ReadonlyArray<{ path: string; mode: string }>): Problem[] {
  return tree
    .filter((e) => !REGULAR.has(e.mode))
    .map((e) => ({ path: e.path, message: 'not a regular file (symlinks and submodules are not allowed in content/)' }));
}

/** The content model of a commit's files, and every problem with them, irregular entries (symlinks, submodules) included. */
export function loadCommitContent({ tree, texts }: { tree: ReadonlyArray<{ path: string; mode: string }>; texts: ContentFiles }): LoadResult {
  const { model, problems } = loadContent(texts);
  return { model, problems: [...problems, ...irregularProblems(tree)] };
}

function lineOfKey(text: string, key: string): number | undefined {
  const index = text.split('\n').findIndex((line) => line.startsWith(`${key}:`));
  return index >= 0 ? index + 1 : undefined;
}

/** `path:line: message`, the form printed at start and by the CLI. */
export function formatProblem(p: Problem): string {
  const where = p.path ? `${p.path}${p.line ? `:${p.line}` : ''}` : '';
  const field = p.pointer && !p.message.includes(p.pointer.slice(1).replace(/\//g, '.')) ? ` (${p.pointer})` : '';
  return `${where ? `${where}: ` : ''}${p.message}${field}`;
}
