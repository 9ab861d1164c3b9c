// The content tree as data: every file parsed and checked on its own, then the whole tree checked for
// references (skills, translations, unique slugs). The result is a model or a list of problems. A tree is
// checked from the tree checked before it, so the work is that of the files that differ and what refers to them.
import type { Problem } from '../contract/errors.ts';
import { limits } from '../contract/limits.ts';
import { documentNames, translationLocales } from '../contract/shared.ts';
import { lineOfKey } from './front-matter.ts';
import { checkFile, type CheckedTree, type FileCheck } from './file-check.ts';
import { locate, translationPath, type Located } from './locate.ts';
import type { ContentFiles, EntryFields, LoadResult, TranslationFile } from './model.ts';
import { insertionPoint, mergeSteps, pathOrder, sortSteps } from './path-order.ts';
import { corpusFolders, type FileKind } from './schema.ts';
import { modelSteps } from './tree-model.ts';
import { structureProblems } from './translation-structure.ts';
import type { Pause } from './pause.ts';
import { workingOn } from './working-on.ts';

export { locate, RELATED_TERMS_PATH, type Located } from './locate.ts';
export type {
  BriefFields,
  ContentFiles,
  ContentModel,
  DocumentFields,
  EntryFields,
  EntryFile,
  LensFields,
  LoadResult,
  RelatedTerms,
  Site,
  SkillFields,
  SourceFile,
  TranslationFile,
} from './model.ts';

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
    if (text !== undefined) checkCounts.files++;
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
  // (a skill whose file is there but broken is reported as itself: its users refer to it rightly)
  skillsOf(check).forEach((skill, index) => {
    if (!get(`content/skills/${skill}.md`)) {
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
