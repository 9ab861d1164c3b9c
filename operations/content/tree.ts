// The content tree as data: every file parsed and checked on its own, then the whole tree checked for
// references (skills, translations, unique slugs). The result is a model or a list of problems. A tree is
// checked from the tree checked before it, so the work is that of the files that differ and what refers to them.
import type { z } from 'zod';
import type { Problem } from '../contract/errors.ts';
import { limits } from '../contract/limits.ts';
import { documentNames, translationLocales, type DocumentName, type Kind, type LensId, type Locale, type TranslationLocale } from '../contract/shared.ts';
import { lineOfKey, parseJsonFile, parseMarkdownFile } from './front-matter.ts';
import { locate, RELATED_TERMS_PATH, translationPath, type Located } from './locate.ts';
import { insertionPoint, mergeSteps, pathOrder, sortSteps } from './path-order.ts';
import { corpusFolders, fileKinds, RelatedTermsFile, SiteFile, type FileKind, type PlaceTable } from './schema.ts';
import { hashOfParsed } from './source-hash.ts';
import { structureProblems } from './translation-structure.ts';
import type { Pause } from './pause.ts';
import { workingOn } from './working-on.ts';

export { locate, RELATED_TERMS_PATH, type Located } from './locate.ts';

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
  locale: TranslationLocale;
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
  /** Places and organisations an entry's location and organisation stand for (the same file's `places` and `organisations`). */
  places: PlaceTable;
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

/** Where problems of the whole tree (rather than of one file) are told. */
const CONTENT_ROOT = 'content';

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
  const applied = await runSliced(applySteps(before, changes), pause);
  return problemsOf({ problems: withChangedTranslations(applied, changes) }, changes.map(([path]) => path));
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

function checkFile(path: string, text: string): FileCheck {
  checkCounts.files++;
  workingOn(path);
  const where = locate(path);
  if (where.kind === 'unknown') return { text, where, body: '', problems: [{ path, message: `unexpected file: ${where.reason}` }] };
  // A file pushed from elsewhere is held to what a write through the service is (and what an answer may hold of it).
  if (text.length > limits.contentFile)
    return { text, where, body: '', problems: [{ path, message: `a content file is at most ${limits.contentFile} characters (512 kB); this one has ${text.length}` }] };
  switch (where.kind) {
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
  const hash = hashOfParsed(where.kind, fields, body);
  const file =
    where.kind === 'entry' ? { path, fields: fields as EntryFields, body, hash, slug: where.id, kind: where.entryKind! } : { path, fields, body, hash };
  return { text, where, fields, body, problems: [], file };
}

const slugKinds = new Set<Located['kind']>(['entry', 'lens', 'skill']);

/** The paths a slug can have: an entry of each kind, a lens, a skill. */
function slugPaths(slug: string): string[] {
  return [...Object.keys(corpusFolders).map((folder) => `content/corpus/${folder}/${slug}.md`), `content/lenses/${slug}.md`, `content/skills/${slug}.md`];
}

/** The paths whose problems can change when `path` does (itself included), skills' users aside. */
function* relatedTo(path: string, where: Located): Generator<string> {
  yield path;
  if (where.kind === 'unknown' || where.kind === 'site' || where.kind === 'related-terms' || where.kind === 'translation') return;
  if (slugKinds.has(where.kind)) yield* slugPaths(where.id);
  for (const locale of translationLocales) yield translationPath(path, locale);
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
  workingOn(null);
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
  // A tree is bounded, so every list an answer makes of it (entries, skills, pages, files) is, as the contract says.
  const count = base.checks.size + added.length - removed.size;
  if (count > limits.contentFiles)
    problems.set(CONTENT_ROOT, [{ path: CONTENT_ROOT, message: `the content tree holds ${count} files; it may hold at most ${limits.contentFiles}` }]);
  else problems.delete(CONTENT_ROOT);
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
    // A stale translation is served in English until the next publish run translates it again: its shape is no
    // problem of the tree, or adding an item to an English list would fail because of every translation.
    return isStale(check, source) ? [] : shapeProblems(path, check, source);
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

/** A translation whose `source` is not the hash of its source's English as it is. */
const isStale = (translation: FileCheck, source: FileCheck) => (translation.fields as TranslationFile['fields']).source !== source.file!.hash;

/** Where a parsed translation's lists do not line up with its valid source's. */
function shapeProblems(path: string, translation: FileCheck, source: FileCheck): Problem[] {
  const kind = (source.where as Extract<Located, { kind: FileKind }>).kind;
  return structureProblems(path, translation.text, kind, translation.fields!, source.fields!);
}

/**
 * The problems of changes, with the shape of each changed translation checked against its source even when it
 * is stale: the tree does not mind a stale one, but an editor changing it should hear that it does not line up.
 */
function withChangedTranslations(applied: Applied, changes: ReadonlyArray<readonly [string, string | undefined]>): ReadonlyMap<string, readonly Problem[]> {
  let problems = applied.problems;
  const get = (path: string) => (applied.own.has(path) ? applied.own.get(path) : applied.base.checks.get(path));
  for (const [path] of changes) {
    const check = applied.own.get(path);
    if (check?.where.kind !== 'translation' || !check.fields) continue;
    const source = get(check.where.sourcePath);
    if (!source?.file || !isStale(check, source)) continue; // a current one's shape is checked with the tree
    const found = shapeProblems(path, check, source);
    if (!found.length) continue;
    if (problems === applied.problems) problems = new Map(problems);
    (problems as Map<string, readonly Problem[]>).set(path, [...(problems.get(path) ?? []), ...found]);
  }
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
    places: {
      places: (checks.get(RELATED_TERMS_PATH)?.fields as PlaceTable | undefined)?.places ?? {},
      organisations: (checks.get(RELATED_TERMS_PATH)?.fields as PlaceTable | undefined)?.organisations ?? {},
    },
  };
  models.set(tree, model);
  return model;
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

/** `path:line: message`, the form printed at start and by the CLI. */
export function formatProblem(p: Problem): string {
  const where = p.path ? `${p.path}${p.line ? `:${p.line}` : ''}` : '';
  const field = p.pointer && !p.message.includes(p.pointer.slice(1).replace(/\//g, '.')) ? ` (${p.pointer})` : '';
  return `${where ? `${where}: ` : ''}${p.message}${field}`;
}
