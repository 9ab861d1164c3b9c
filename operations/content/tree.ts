// The content tree as data: every file parsed and checked on its own, then the whole tree checked for
// references (skills, translations, unique slugs). The result is a model or a list of problems. A tree is
// checked from the tree checked before it, so the work is that of the files that differ and what refers to them.
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

/**
 * One file's own check: where it sits, its parse, and the problems found in it alone. A function of its path and
 * text only, so a tree's checks carry over to the next tree for every file that did not change.
 */
interface FileCheck {
  text: string;
  where: Located;
  /** The parse (front matter, or the JSON file's data) when it has no problems of its own. */
  fields?: Record<string, unknown>;
  body: string;
  problems: readonly Problem[];
  /** A valid source file (entry, lens, skill, document, brief) as the model holds it, shared by every model with this text. */
  file?: SourceFile<object> | EntryFile;
}

/**
 * A content tree, checked: each file's own check, and the whole tree's problems by the path they are about. A
 * tree is checked from the last one checked and the files that differ, so a commit's validation parses the files it
 * changes and checks again only what refers to them (the entries naming a skill, a source's translations, the files
 * sharing a slug), not the other 18k files of 100× the demo's content. Never changed once made.
 */
interface CheckedTree {
  checks: ReadonlyMap<string, FileCheck>;
  /** Every path, in the order files are read (and the model lists them). */
  order: readonly string[];
  /** Valid entries' paths, by each skill they name. */
  skillUsers: ReadonlyMap<string, ReadonlySet<string>>;
  /** The whole tree's problems, by the path each is about (only paths with problems). */
  problems: ReadonlyMap<string, readonly Problem[]>;
}

/** Files every tree has, with what is said when one is missing. */
const required = new Map<string, string>([
  ['content/site.json', 'the site file is missing'],
  ['content/brief.md', 'the brief is missing'],
  ...documentNames.map((name): [string, string] => [`content/documents/${name}.md`, `the "${name}" document is missing`]),
]);

const EMPTY: CheckedTree = {
  checks: new Map(),
  order: [],
  skillUsers: new Map(),
  problems: new Map([...required].map(([path, message]) => [path, [{ path, message }]])),
};

/** The tree checked last: the next one is checked from it. */
let latest = EMPTY;

/**
 * Parses and validates a whole content tree. `model` is present only when there are no problems. `fresh`: checked
 * from nothing, not from the tree checked last (the same answer, which the tests hold the incremental check to).
 */
export function loadContent(files: ContentFiles, { fresh = false } = {}): LoadResult {
  return runNow(loadSteps(files, fresh ? EMPTY : latest));
}

/** What checking has done since the process started: files parsed and checked on their own, paths whose problems were worked out. */
export const checkCounts = { files: 0, paths: 0 };

/**
 * `loadContent` for a caller that must keep answering requests (a commit's validation, a build, the warm-up after
 * a start): `pause` is awaited between steps. Cold (after a restart) the whole tree parsed at once held requests for
 * 0.3 s at 10× the demo's content.
 */
export async function loadContentSliced(files: ContentFiles, pause: Pause): Promise<LoadResult> {
  return oneAtATime(() => runSliced(loadSteps(files, latest), pause));
}

/** The problems of `files`, without their model: a check that the next one (a commit's validation) starts from. */
export async function problemsOfContent(files: ContentFiles, pause: Pause): Promise<Problem[]> {
  return problemsOf(await oneAtATime(() => runSliced(checkSteps(files, latest), pause)));
}

/**
 * Problems of the tree `files` would be with `changes` (a text, or undefined to delete), checked from `files`' own
 * check. Those about the changed files come first, in the order of `changes`: an editor reads its own file's errors
 * before those of the entries that name it.
 */
export async function problemsAfter(files: ContentFiles, changes: ReadonlyArray<readonly [string, string | undefined]>, pause: Pause): Promise<Problem[]> {
  const before = await oneAtATime(() => runSliced(checkSteps(files, latest), pause));
  return problemsOf(await runSliced(applySteps(before, changes), pause), changes.map(([path]) => path));
}

let checking: Promise<unknown> = Promise.resolve();

/**
 * Sliced checks of a tree run one at a time, each from the tree checked before it. Two at once both started from the
 * same older tree: the first commit after a restart checked all 18k files at 100× the demo content beside the
 * warm-up's check of the same files, instead of checking its one file from it.
 */
function oneAtATime<T>(check: () => Promise<T>): Promise<T> {
  const result = checking.then(check);
  checking = result.catch(() => {});
  return result;
}

function* loadSteps(files: ContentFiles, base: CheckedTree): Generator<void, LoadResult> {
  const tree = yield* checkSteps(files, base);
  const problems = problemsOf(tree);
  return problems.length ? { problems } : { model: yield* modelSteps(tree), problems };
}

/** Runs steps to their end at once. */
function runNow<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs steps to their end, pausing between them. */
async function runSliced<T>(steps: Generator<void, T>, pause: Pause): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    const paused = pause();
    if (paused) await paused;
  }
}

/** `files` checked: from the tree checked last, with the files that differ from it (none: that tree itself). */
function* checkSteps(files: ContentFiles, base: CheckedTree): Generator<void, CheckedTree> {
  const changes: Array<[string, string | undefined]> = [];
  let kept = 0;
  for (const [path, text] of files) {
    if ((kept + changes.length) % 2048 === 0) yield;
    const check = base.checks.get(path);
    if (check?.text === text) kept++;
    else changes.push([path, text]);
  }
  if (kept < base.checks.size) for (const path of base.order) if (!files.has(path)) changes.push([path, undefined]);
  if (!changes.length) return base;
  const tree = yield* treeSteps(yield* applySteps(base, changes));
  latest = tree;
  return tree;
}

/** Each parsed source's hash, by its fields (one object per path and text, front-matter.ts keeps them). */
const sourceHashes = new WeakMap<object, string>();

function checkFile(path: string, text: string): FileCheck {
  checkCounts.files++;
  const where = locate(path);
  switch (where.kind) {
    case 'unknown':
      return { text, where, body: '', problems: [{ path, message: `unexpected file: ${where.reason}` }] };
    case 'site':
    case 'related-terms': {
      const parsed = parseJsonFile(path, text, where.kind === 'site' ? SiteFile : RelatedTermsFile);
      return { text, where, fields: parsed.data, body: '', problems: parsed.problems };
    }
    case 'translation': {
      const source = locate(where.sourcePath) as Extract<Located, { kind: FileKind }>;
      const parsed = parseMarkdownFile(path, text, fileKinds[source.kind].translation);
      return { text, where, fields: parsed.data, body: parsed.body.trim(), problems: parsed.problems };
    }
  }
  const parsed = parseMarkdownFile(path, text, fileKinds[where.kind].fields);
  if (!parsed.data) return { text, where, body: parsed.body, problems: parsed.problems };
  const body = parsed.body.trim();
  if (!body) return { text, where, body, problems: [{ path, pointer: '/body', message: `the body (${fileKinds[where.kind].body}) must not be empty` }] };
  const fields = parsed.data as Record<string, unknown>;
  let hash = sourceHashes.get(fields);
  if (hash === undefined) sourceHashes.set(fields, (hash = sourceHash(where.kind, fields, body)));
  const file =
    where.kind === 'entry' ? { path, fields: fields as EntryFields, body, hash, slug: where.id, kind: where.entryKind! } : { path, fields, body, hash };
  return { text, where, fields, body, problems: [], file };
}

const slugKinds = new Set<Located['kind']>(['entry', 'lens', 'skill']);
const translationLocales = locales.filter((l): l is Exclude<Locale, 'en'> => l !== 'en');

/** The paths a slug can have: an entry of each kind, a lens, a skill. */
function slugPaths(slug: string): string[] {
  return [...Object.keys(corpusFolders).map((folder) => `content/corpus/${folder}/${slug}.md`), `content/lenses/${slug}.md`, `content/skills/${slug}.md`];
}

/** The paths whose problems can change when `path` does (itself included), skills' users aside. */
function* relatedTo(path: string, where: Located): Generator<string> {
  yield path;
  if (where.kind === 'unknown' || where.kind === 'site' || where.kind === 'related-terms' || where.kind === 'translation') return;
  if (slugKinds.has(where.kind)) yield* slugPaths(where.id);
  const rest = path.slice('content/'.length);
  for (const locale of translationLocales) yield `content/i18n/${locale}/${rest}`;
}

function skillsOf(check: FileCheck | undefined): readonly string[] {
  return check?.where.kind === 'entry' && check.file ? (check.fields as EntryFields).skills : [];
}

/** Changes checked against a tree: the checks that differ from it, and the problems of the tree they make. */
interface Applied {
  base: CheckedTree;
  /** The changed paths' checks (undefined: deleted). */
  own: ReadonlyMap<string, FileCheck | undefined>;
  skillUsers: ReadonlyMap<string, ReadonlySet<string>>;
  problems: ReadonlyMap<string, readonly Problem[]>;
  added: readonly string[];
  removed: ReadonlySet<string>;
}

/**
 * `changes` checked against `base`: the changed files checked, then the problems of every path they can affect,
 * looked up through `base` (which is not copied: a validation of one file is answered without a new tree).
 */
function* applySteps(base: CheckedTree, changes: ReadonlyArray<readonly [string, string | undefined]>): Generator<void, Applied> {
  const own = new Map<string, FileCheck | undefined>();
  const get = (path: string) => (own.has(path) ? own.get(path) : base.checks.get(path));
  const skillUsers = new Map(base.skillUsers);
  const copied = new Set<string>(); // the skills whose set of users is this tree's own already
  const users = (skill: string) => {
    let set = skillUsers.get(skill) as Set<string> | undefined;
    if (!copied.has(skill)) {
      skillUsers.set(skill, (set = new Set(set)));
      copied.add(skill);
    }
    return set!;
  };
  const dirty = new Set<string>();
  const whole = !base.checks.size; // a tree checked from nothing: every path's problems are worked out, so none is followed
  const changedSkills: string[] = [];
  const added: string[] = [];
  const removed = new Set<string>();
  let n = 0;
  for (const [path, text] of changes) {
    if (++n % 64 === 0) yield;
    const before = get(path);
    const after = text === undefined ? undefined : checkFile(path, text);
    own.set(path, after);
    if (before && !after) removed.add(path);
    if (!before && after) added.push(path);
    for (const skill of skillsOf(before)) users(skill).delete(path);
    for (const skill of skillsOf(after)) users(skill).add(path);
    if (whole) {
      dirty.add(path);
      continue;
    }
    const where = after?.where ?? before?.where ?? locate(path);
    for (const related of relatedTo(path, where)) dirty.add(related);
    if (where.kind === 'skill') changedSkills.push(where.id);
  }
  if (whole) for (const path of required.keys()) dirty.add(path);
  for (const skill of changedSkills) for (const path of skillUsers.get(skill) ?? []) dirty.add(path);
  for (const [skill, set] of skillUsers) if (copied.has(skill) && !set.size) skillUsers.delete(skill);

  const problems = new Map(base.problems);
  for (const path of dirty) {
    if (++n % 256 === 0) yield;
    checkCounts.paths++;
    const owned = ownedProblems(path, get);
    if (owned.length) problems.set(path, owned);
    else problems.delete(path);
  }
  return { base, own, skillUsers, problems, added, removed };
}

/** The tree changes make: `base`'s checks with theirs, and its paths in order. */
function* treeSteps({ base, own, skillUsers, problems, added, removed }: Applied): Generator<void, CheckedTree> {
  yield;
  const checks = new Map(base.checks);
  for (const [path, check] of own) {
    if (check) checks.set(path, check);
    else checks.delete(path);
  }
  let order = base.order;
  if (removed.size) order = order.filter((path) => !removed.has(path));
  if (added.length > 64) order = yield* mergeSteps(order, yield* sortSteps(added));
  else if (added.length) {
    const into = order === base.order ? [...order] : (order as string[]);
    for (const path of added) into.splice(insertionPoint(into, path), 0, path);
    order = into;
  }
  return { checks, order, skillUsers, problems };
}

/** The whole tree's problems about `path`: its own, then those of its references. */
function ownedProblems(path: string, get: (path: string) => FileCheck | undefined): readonly Problem[] {
  const check = get(path);
  if (!check) {
    const missing = required.get(path);
    return missing ? [{ path, message: missing }] : [];
  }
  const { where } = check;
  if (where.kind === 'translation') {
    const source = get(where.sourcePath);
    if (!source) return [{ path, message: `translation of ${where.sourcePath}, which does not exist` }];
    if (!source.file) return []; // a broken source is reported as itself
    if (!check.fields) return check.problems;
    const problems: Problem[] = [];
    // A translated list lines up item by item with the English one (contributions, honestGaps, questions…).
    for (const key of translatableFields[(source.where as Extract<Located, { kind: FileKind }>).kind]) {
      const translated = check.fields[key];
      const english = source.fields![key];
      if (Array.isArray(translated) && Array.isArray(english) && translated.length !== english.length) {
        problems.push({ path, pointer: `/${key}`, message: `${key} has ${translated.length} items but the English has ${english.length}`, line: lineOfKey(check.text, key) });
      }
    }
    return problems;
  }
  if (!check.file || where.kind === 'unknown' || where.kind === 'site' || where.kind === 'related-terms') return check.problems;
  const problems: Problem[] = [];
  if (slugKinds.has(where.kind)) {
    const first = slugPaths(where.id)
      .filter((p) => get(p)?.file)
      .sort((a, b) => pathOrder.compare(a, b))[0];
    if (first !== path) problems.push({ path, message: `slug "${where.id}" is already used by ${first}; slugs are unique across entries, lenses and skills` });
  }
  skillsOf(check).forEach((skill, index) => {
    if (!get(`content/skills/${skill}.md`)?.file) {
      problems.push({ path, pointer: `/skills/${index}`, message: `skill "${skill}" does not exist: add content/skills/${skill}.md or use an existing skill`, line: lineOfKey(check.text, 'skills') });
    }
  });
  return problems;
}

/** The problems of a checked tree (or of changes to one): those about `first`'s paths, then the others by path in the order files are read. */
function problemsOf({ problems }: { problems: ReadonlyMap<string, readonly Problem[]> }, first: readonly string[] = []): Problem[] {
  if (!problems.size) return [];
  const lead = new Set(first.filter((path) => problems.has(path)));
  const rest = [...problems.keys()].filter((path) => !lead.has(path)).sort((a, b) => pathOrder.compare(a, b));
  return [...lead, ...rest].flatMap((path) => problems.get(path)!);
}

/** A valid tree's model (made once per tree). */
const models = new WeakMap<CheckedTree, ContentModel>();
/** Each translation's file in a model, by whether it is stale (a model's are shared with the next's). */
const translationFiles = new WeakMap<FileCheck, [TranslationFile?, TranslationFile?]>();

function* modelSteps(tree: CheckedTree): Generator<void, ContentModel> {
  const known = models.get(tree);
  if (known) return known;
  const { checks } = tree;
  const entries = new Map<string, EntryFile>();
  const lenses = new Map<LensId, SourceFile<LensFields>>();
  const skills = new Map<string, SourceFile<SkillFields>>();
  const documents = new Map<DocumentName, SourceFile<DocumentFields>>();
  const translations = new Map<string, Map<Locale, TranslationFile>>();
  let n = 0;
  for (const path of tree.order) {
    if (++n % 1024 === 0) yield;
    const check = checks.get(path)!;
    const { where } = check;
    switch (where.kind) {
      case 'entry':
        entries.set(where.id, check.file as EntryFile);
        break;
      case 'lens':
        lenses.set(where.id as LensId, check.file as SourceFile<LensFields>);
        break;
      case 'skill':
        skills.set(where.id, check.file as SourceFile<SkillFields>);
        break;
      case 'document':
        documents.set(where.id as DocumentName, check.file as SourceFile<DocumentFields>);
        break;
      case 'translation': {
        const fields = check.fields as TranslationFile['fields'];
        const stale = fields.source !== checks.get(where.sourcePath)!.file!.hash;
        let pair = translationFiles.get(check);
        if (!pair) translationFiles.set(check, (pair = []));
        const file = (pair[+stale] ??= { path, locale: where.locale, sourcePath: where.sourcePath, fields, body: check.body, stale });
        let byLocale = translations.get(where.sourcePath);
        if (!byLocale) translations.set(where.sourcePath, (byLocale = new Map()));
        byLocale.set(where.locale, file);
        break;
      }
    }
  }
  const model: ContentModel = {
    site: checks.get('content/site.json')!.fields as Site,
    brief: checks.get('content/brief.md')!.file as SourceFile<BriefFields>,
    entries,
    lenses,
    skills,
    documents,
    translations,
    relatedTerms: (checks.get(RELATED_TERMS_PATH)?.fields as { groups: RelatedTerms } | undefined)?.groups ?? {},
  };
  models.set(tree, model);
  return model;
}

/** The order files are read in (as `localeCompare`; one collator, as a new one per comparison costs 0.3 s at 100× the demo). */
const pathOrder = new Intl.Collator();

function insertionPoint(sorted: readonly string[], path: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pathOrder.compare(sorted[mid]!, path) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Paths in read order, a run at a time: 18k paths sorted at once held requests for 28 ms at 100× the demo. */
function* sortSteps(paths: readonly string[]): Generator<void, string[]> {
  let runs: string[][] = [];
  for (let i = 0; i < paths.length; i += 512) {
    yield;
    runs.push(paths.slice(i, i + 512).sort((a, b) => pathOrder.compare(a, b)));
  }
  while (runs.length > 1) {
    const next: string[][] = [];
    for (let i = 0; i < runs.length; i += 2) next.push(runs[i + 1] ? yield* mergeSteps(runs[i]!, runs[i + 1]!) : runs[i]!);
    runs = next;
  }
  return runs[0] ?? [];
}

function* mergeSteps(a: readonly string[], b: readonly string[]): Generator<void, string[]> {
  const out: string[] = new Array<string>(a.length + b.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < out.length; k++) {
    if (k % 2048 === 0) yield;
    out[k] = j >= b.length || (i < a.length && pathOrder.compare(a[i]!, b[j]!) <= 0) ? a[i++]! : b[j++]!;
  }
  return out;
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
