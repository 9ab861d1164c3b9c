// Handlers of the admin operations: the content repository through validated commits, the publish runs,
// promote. Every write is one commit on one branch and queues that branch's publish run.
import { AppError, clipped, listedProblems } from '../contract/errors.ts';
import { limits } from '../contract/limits.ts';
import type { z } from 'zod';
import { FILE_MATCHES, type adminOperations, type Change } from '../contract/admin.ts';
import type { Branch, DocumentName, LensId } from '../contract/shared.ts';
import { assertContentDir, assertReadablePath, assertWritablePath, isMediaPath } from '../content/paths.ts';
import type { CommitOutcome, ContentRepo, FileChange } from '../repo/content-repo.server.ts';
import { searchFiles } from '../content/file-search.ts';
import { locate } from '../content/locate.ts';
import { unifiedDiff } from '../content/unified-diff.ts';
import { loadContentSliced, type ContentModel } from '../content/tree.ts';
import { slicer } from '../content/pause.ts';
import { localeRecords } from '../corpus/corpus.ts';
import { describeContentSchema, type UiMessages } from './content-schema.server.ts';
import { translationStates } from './translate.server.ts';
import type { Pipeline, Run } from './pipeline.server.ts';
import type { CallContext, Handlers, Refuse } from './implement.server.ts';
import { authorOf } from './author.server.ts';
import { storedImage } from './image-check.server.ts';
import type { Corpus, SiteUrls } from './services.server.ts';
import type { Models } from './models.server.ts';

/** Who a run's commit was made by, as publish runs show it: the signed-in account's name. */
const accountName = (ctx: CallContext) => (ctx.principal.kind === 'admin' ? ctx.principal.account.name : undefined);

type AdminHandlers = Handlers<typeof adminOperations>;

export interface AdminDeps {
  corpus: Corpus;
  repo: ContentRepo;
  pipeline: Pipeline;
  urls: SiteUrls;
  uiMessages: UiMessages;
}

/** The source file of an entry, lens or skill slug, as the branch's live build knows it. */
export function pathOfSlug(corpus: Corpus, branch: Branch, slug: string, refuse: Refuse<'not_found'>): string {
  const model = corpus.build(branch).model;
  const path = model.entries.get(slug)?.path ?? model.lenses.get(slug as never)?.path ?? model.skills.get(slug)?.path;
  if (!path) throw refuse('not_found', `No entry, lens or skill with slug "${slug}" on ${branch}. List files with GET /api/admin/files.`);
  return path;
}

/**
 * A change set as the contract takes it, as the repository takes it. Each image is checked and re-encoded as
 * admin_upload_media does it (415, 413, 400 naming its path), one after another, before anything is written: one
 * refused image refuses the whole set.
 */
async function asFileChanges(changes: ReadonlyArray<z.output<typeof Change>>): Promise<FileChange[]> {
  const files: FileChange[] = [];
  for (const c of changes) {
    if ('delete' in c) files.push({ path: c.path, delete: true, sha: c.sha });
    else if ('contentBase64' in c) files.push({ path: c.path, bytes: (await storedImage(c.path, c.contentBase64)).bytes, sha: c.sha });
    else files.push({ path: c.path, content: c.content, sha: c.sha });
  }
  return files;
}

/**
 * The file an operation names by `path` or by an entry's, lens's or skill's `slug`, checked as a content path (by the
 * rules of a write; a refusal worded as a read's for an operation that only reads: `reading`); an image (bytes, no
 * text) only where the operation reads images (`images`).
 */
export function fileOf(
  corpus: Corpus,
  input: { path?: string; slug?: string; branch: Branch },
  refuse: Refuse<'not_found'>,
  { images = false, reading = false }: { images?: boolean; reading?: boolean } = {},
): string {
  const path = input.path ?? pathOfSlug(corpus, input.branch, input.slug!, refuse);
  (reading ? assertReadablePath : assertWritablePath)(path);
  if (!images && isMediaPath(path)) throw new AppError('bad_request', `"${path}" is an image: it has no text to work on (admin_read_file reads its bytes).`);
  return path;
}

/** The configured models, or the 503 that says how to configure them (`what` needs them: "AI editing"…). */
export function needModels(models: Models | undefined, what: string, refuse: Refuse<'chat_not_configured'>): Models {
  if (!models) throw refuse('chat_not_configured', `${what} needs a model: set OPENAI_API_KEY, or OPENAI_BASE_URL for an OpenAI-compatible server.`);
  return models;
}

export function adminHandlers({
  corpus,
  repo,
  pipeline,
  urls,
  uiMessages,
}: AdminDeps): Omit<AdminHandlers, 'admin_ai_edit' | 'admin_translate' | 'admin_translation'> {
  // The content model at a branch's head, for translation states: the live build's when it is that commit,
  // else parsed once per commit (the last few are kept).
  const models = new Map<string, ContentModel | null>();
  async function modelAt(branch: Branch): Promise<ContentModel | null> {
    const commit = await repo.head(branch);
    const live = corpus.build(branch);
    if (live.commit === commit) return live.model;
    if (!models.has(commit)) {
      models.set(commit, (await loadContentSliced((await repo.filesAt(commit)).texts, slicer())).model ?? null);
      if (models.size > 4) models.delete(models.keys().next().value!);
    }
    return models.get(commit)!;
  }

  async function committed(outcome: CommitOutcome, ctx: CallContext) {
    if (outcome.changed) await pipeline.enqueue(outcome.branch, outcome.commit.sha, accountName(ctx));
    return { branch: outcome.branch, commit: outcome.commit, files: outcome.files, changed: outcome.changed };
  }

  function runView(run: Run) {
    const { retryOf: _retryOf, sourceCommit: _sourceCommit, url, error, stages, ...rest } = run;
    // A stage's note or a run's error may quote a process's output: the contract states how much of it is shown.
    return {
      ...rest,
      stages: stages.map((stage) => (stage.note === undefined ? stage : { ...stage, note: clipped(stage.note, limits.message) })),
      ...(error === undefined ? {} : { error: clipped(error, limits.message) }),
      url: url ?? `${urls.base}/api/admin/deploys?branch=${run.branch}#${run.id}`,
      siteUrl: urls.of(run.branch),
    };
  }

  return {
    admin_schema(input) {
      return describeContentSchema(corpus.build(input.branch).model, uiMessages);
    },

    async admin_list_files(input) {
      const dir = assertContentDir(input.dir ?? 'content');
      const files = await repo.listFiles(input.branch, dir);
      const model = await modelAt(input.branch);
      const states = model ? statesOf(model) : new Map<string, never>();
      const titles = model ? titlesOf(model) : new Map<string, string>();
      const listed = (list: typeof files) =>
        list.map(({ path, size, sha }) => ({
          path,
          size,
          sha,
          ...(titles.has(path) ? { title: titles.get(path) } : {}),
          ...(states.has(path) ? { translations: states.get(path) } : {}),
        }));
      if (!input.q) return { branch: input.branch, files: listed(files) };
      // A search reads the texts the listing's commit holds (kept per commit by the repository), in the folder asked.
      const { texts } = await repo.filesAt(await repo.head(input.branch));
      const inDir = new Map(files.filter((f) => texts.has(f.path)).map((f) => [f.path, texts.get(f.path)!]));
      const { matches, truncated } = await searchFiles(inDir, titles, input.q, { limit: FILE_MATCHES, pause: slicer() });
      const byPath = new Map(files.map((f) => [f.path, f]));
      const found = listed(matches.map((m) => byPath.get(m.path)!));
      return { branch: input.branch, files: found.map((f, i) => ({ ...f, ...(matches[i]!.match ? { match: matches[i]!.match } : {}) })), truncated };
    },

    async admin_read_file(input, { refuse }) {
      const path = fileOf(corpus, input, refuse, { images: true, reading: true });
      const file = await repo.readFile(input.branch, path, input.ref);
      if (file.bytes) return { path, sha: file.sha, content: '', contentBase64: file.bytes.toString('base64'), branch: input.branch, ref: file.commit };
      // At the head, a source file says where its translations stand (the editor shows them, and what a delete takes).
      const model = input.ref ? null : await modelAt(input.branch);
      const translations = model ? statesOf(model).get(path) : undefined;
      return { path, sha: file.sha, content: file.content, branch: input.branch, ref: file.commit, ...(translations ? { translations } : {}) };
    },

    async admin_history(input) {
      if (input.path) assertReadablePath(input.path);
      return repo.history(input.branch, { path: input.path, cursor: input.cursor, limit: input.limit });
    },

    async admin_compare(input) {
      const { aheadBy, commits, files } = await repo.compare(input.base, input.head);
      return {
        base: input.base,
        head: input.head,
        aheadBy,
        commits,
        files: files.map(({ path, before, after, media }) =>
          media
            ? { path, status: statusOf(media.before, media.after), diff: `Binary files a/${path} and b/${path} differ\n`, media }
            : { path, status: statusOf(before, after), diff: unifiedDiff(path, before ?? '', after ?? '', input.base, input.head) },
        ),
      };
    },

    async admin_validate(input) {
      const problems = await repo.validate(input.branch, [{ path: input.path, content: input.content }]);
      return { valid: problems.length === 0, problems: listedProblems(problems) };
    },

    async admin_write_file(input, ctx) {
      return committed(await repo.commit(input.branch, [{ path: input.path, content: input.content, sha: input.sha }], input.message, authorOf(ctx)), ctx);
    },

    async admin_delete_file(input, ctx) {
      return committed(await repo.commit(input.branch, [{ path: input.path, delete: true, sha: input.sha }], input.message, authorOf(ctx)), ctx);
    },

    async admin_commit_changes(input, ctx) {
      return committed(await repo.commit(input.branch, await asFileChanges(input.changes), input.message, authorOf(ctx)), ctx);
    },

    async admin_validate_changes(input) {
      // Base shas are checked as the commit checks them: a file that moved under the editor is a 409 here too, which
      // the console answers with the merge view. Problems of a tree the editor has not seen (theirs merged with
      // someone else's change) would mislead, and the commit would refuse the set anyway.
      const { problems, files } = await repo.review(input.branch, await asFileChanges(input.changes));
      return { valid: problems.length === 0, problems: listedProblems(problems), files };
    },

    async admin_preview(input) {
      assertWritablePath(input.path);
      const { texts } = await repo.filesAt(await repo.head(input.branch));
      const files = new Map(texts).set(input.path, input.content);
      const { model, problems } = await loadContentSliced(files, slicer());
      const where = locate(input.path);
      // A translation previews its source's record in its own locale.
      const locale = where.kind === 'translation' ? where.locale : input.locale;
      const target = where.kind === 'translation' ? locate(where.sourcePath) : where;
      const empty = { path: input.path, locale, labels: { skills: {}, lenses: {} }, problems: listedProblems(problems) };
      if (!model || target.kind === 'unknown' || target.kind === 'translation' || target.kind === 'related-terms') return { ...empty, kind: null };
      // Images as the branch's live build knows them (one uploaded since shows once it is built).
      const view = localeRecords(model, locale, urls.of(input.branch), corpus.build(input.branch).media);
      const labels = {
        skills: Object.fromEntries([...view.skills].map(([slug, skill]) => [slug, skill.name])),
        lenses: Object.fromEntries(view.lenses.map((l) => [l.id, l.title])),
      };
      const preview = { ...empty, labels, kind: target.kind };
      if (target.kind === 'entry') return { ...preview, entry: view.entryBySlug.get(target.id) };
      if (target.kind === 'lens') return { ...preview, lens: view.lensById.get(target.id as LensId) };
      if (target.kind === 'document') return { ...preview, document: view.documents.get(target.id as DocumentName) };
      if (target.kind === 'brief') return { ...preview, brief: { title: view.brief.title, markdown: view.brief.markdown, translated: view.brief.translated } };
      return preview;
    },

    admin_deploy_status(input) {
      return { runs: pipeline.list(input.branch, input.limit).map(runView) };
    },

    async admin_promote(input, ctx) {
      const outcome = await repo.promote(input.message, authorOf(ctx));
      if (outcome.changed) await pipeline.enqueue('main', outcome.commit.sha, accountName(ctx));
      return {
        branch: 'main' as const,
        commit: outcome.commit,
        files: outcome.files,
        changed: outcome.changed,
        merged: outcome.merged,
        fastForward: outcome.fastForward,
      };
    },
  };
}

/** Whether a file was added, deleted or modified, by what exists of it before and after. */
const statusOf = (before: unknown, after: unknown) => (before === null ? ('added' as const) : after === null ? ('deleted' as const) : ('modified' as const));

/** Each model's translation states and titles, made once per model (every listing and every editor load asks). */
const statesByModel = new WeakMap<ContentModel, ReturnType<typeof translationStates>>();
const titlesByModel = new WeakMap<ContentModel, Map<string, string>>();
function statesOf(model: ContentModel) {
  let found = statesByModel.get(model);
  if (!found) statesByModel.set(model, (found = translationStates(model)));
  return found;
}
function titlesOf(model: ContentModel): Map<string, string> {
  let found = titlesByModel.get(model);
  if (!found) titlesByModel.set(model, (found = titlesIn(model)));
  return found;
}

/** What each file calls itself (an entry's title, a skill's name…); a translation gives its own, else its source's. */
function titlesIn(model: ContentModel): Map<string, string> {
  const titles = new Map<string, string>([
    ['content/site.json', model.site.name],
    [model.brief.path, model.brief.fields.title],
  ]);
  for (const e of model.entries.values()) titles.set(e.path, e.fields.title);
  for (const l of model.lenses.values()) titles.set(l.path, l.fields.title);
  for (const s of model.skills.values()) titles.set(s.path, s.fields.name);
  for (const d of model.documents.values()) titles.set(d.path, d.fields.title);
  for (const [source, byLocale] of model.translations) {
    for (const t of byLocale.values()) titles.set(t.path, String(t.fields.title ?? t.fields.name ?? titles.get(source) ?? ''));
  }
  return titles;
}
