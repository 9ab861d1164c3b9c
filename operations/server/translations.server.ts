// admin_translate ("Translate now"): the model drafts the stale or missing translations of one English file, with
// the problems each would have, and nothing is committed. admin_translation: where a translation stands, with the
// English it was made from (found in the English file's history by the `source` hash it records) beside the English now.
import { clipped, listedProblems } from '../contract/errors.ts';
import { limits } from '../contract/limits.ts';
import type { adminOperations } from '../contract/admin.ts';
import { translationLocales, type Branch, type TranslationLocale } from '../contract/shared.ts';
import { UNTRANSLATED } from '../contract/vocabulary.ts';
import { parseMarkdownFile } from '../content/front-matter.ts';
import { locate, sourceKindOf, translationPath } from '../content/locate.ts';
import { assertReadablePath } from '../content/paths.ts';
import { fileKinds, type FileKind } from '../content/schema.ts';
import { sourceHashOfText } from '../content/source-hash.ts';
import type { ContentRepo } from '../repo/content-repo.server.ts';
import { fileOf, needModels } from './admin.server.ts';
import type { Handlers, Refuse } from './implement.server.ts';
import type { Models } from './models.server.ts';
import type { Corpus } from './services.server.ts';
import { translateJobs, translationJob } from './translate.server.ts';

/** How far back the English file's history is searched for the version a translation was made from. */
const HISTORY_DEPTH = 100;

/** The `source` a translation's text records, or null when it does not parse as a translation of a `kind` file. */
function recordedSource(path: string, text: string, kind: FileKind): string | null {
  return parseMarkdownFile(path, text, fileKinds[kind].translation).data?.source ?? null;
}

/** The English file with translations `path` names: itself, or a bad_request saying what to name instead. */
function englishFile(path: string, refuse: Refuse<'bad_request'>): FileKind {
  const kind = sourceKindOf(path);
  if (kind) return kind;
  const where = locate(path);
  const message =
    where.kind === 'translation'
      ? `"${path}" is a translation: name its English file, ${where.sourcePath}, and the locale ("${where.locale}") in locales.`
      : where.kind === 'unknown'
        ? `"${path}" has no place in the content tree: ${where.reason}.`
        : `"${path}" is not an English file with translations (an entry, a lens, a skill, a document or the brief).`;
  throw refuse('bad_request', message, { errors: [{ pointer: '/path', message }] });
}

export function translationHandlers({
  models,
  repo,
  corpus,
}: {
  models: Models | undefined;
  repo: ContentRepo;
  corpus: Corpus;
}): Pick<Handlers<typeof adminOperations>, 'admin_translate' | 'admin_translation'> {
  /** The English file's text as it was when a translation recording `source` was made, and the commit that made it so. */
  async function englishWhenMade(branch: Branch, sourcePath: string, source: string): Promise<{ then: string | null; thenCommit: string | null }> {
    for await (const version of repo.fileVersions(branch, sourcePath, HISTORY_DEPTH)) {
      if (version.text !== null && sourceHashOfText(sourcePath, version.text) === source) return { then: version.text, thenCommit: version.commit };
    }
    return { then: null, thenCommit: null };
  }

  return {
    async admin_translate(input, { signal, refuse }) {
      const model = needModels(models, 'Translating', refuse);
      const path = fileOf(corpus, input, refuse);
      const kind = englishFile(path, refuse);
      const { tree, texts } = await repo.filesAt(await repo.head(input.branch));
      const saved = texts.get(path);
      const english = input.content ?? saved;
      if (english === undefined) throw refuse('not_found', `No file "${path}" on ${input.branch}; send its text as content to translate it unsaved.`);
      const sourceHash = sourceHashOfText(path, english);
      if (!sourceHash) {
        const errors = (await repo.validate(input.branch, [{ path, content: english }])).filter((p) => p.path === path);
        throw refuse('invalid', `${path} cannot be translated as it is: fix its own problems first.`, { errors });
      }
      const parsed = parseMarkdownFile(path, english, fileKinds[kind].fields);
      const source = { kind, path, fields: parsed.data as Record<string, unknown>, body: parsed.body.trim(), hash: sourceHash };
      // By default the locales whose translation is missing, or was made from another English than this one.
      const current = (locale: TranslationLocale) => {
        const text = texts.get(translationPath(path, locale));
        return text !== undefined && recordedSource(translationPath(path, locale), text, kind) === sourceHash;
      };
      const locales = input.locales ? translationLocales.filter((l) => input.locales!.includes(l)) : translationLocales.filter((l) => !current(l));
      const { made, failures } = await translateJobs(
        model.translate,
        locales.map((locale) => translationJob(source, locale)),
        signal,
      );
      // Each draft's problems in the tree as it would be with this English: the drafts and the English as one change.
      const changes = [...(english === saved ? [] : [{ path, content: english }]), ...made.map((m) => ({ path: m.path, content: m.content }))];
      const problems = made.length ? await repo.validate(input.branch, changes) : [];
      return {
        path,
        sourceHash,
        // In the locales' order, whichever the model answered first.
        drafts: [...made]
          .sort((a, b) => locales.indexOf(a.job.locale) - locales.indexOf(b.job.locale))
          .map((m) => ({
            locale: m.job.locale,
            path: m.path,
            content: m.content,
            sha: tree.find((e) => e.path === m.path)?.sha ?? null,
            problems: listedProblems(problems.filter((p) => p.path === m.path)),
          })),
        failures: [...failures]
          .sort((a, b) => locales.indexOf(a.job.locale) - locales.indexOf(b.job.locale))
          .map((f) => ({ locale: f.job.locale, path: f.path, message: clipped(f.message, limits.message) })),
      };
    },

    async admin_translation(input, { refuse }) {
      assertReadablePath(input.path);
      const where = locate(input.path);
      if (where.kind === 'translation' && input.locale && input.locale !== where.locale) {
        const message = `"${input.path}" is the ${where.locale} translation, not the ${input.locale} one: leave locale out, or name the English file.`;
        throw refuse('bad_request', message, { errors: [{ pointer: '/locale', message }] });
      }
      const sourcePath = where.kind === 'translation' ? where.sourcePath : input.path;
      const kind = englishFile(sourcePath, refuse);
      const locale = where.kind === 'translation' ? where.locale : input.locale!;
      const path = translationPath(sourcePath, locale);
      const { texts } = await repo.filesAt(await repo.head(input.branch));
      const now = texts.get(sourcePath) ?? null;
      const translation = texts.get(path);
      if (now === null && translation === undefined) throw refuse('not_found', `No file "${sourcePath}" on ${input.branch}, and no translation of it.`);
      const currentSource = now === null ? null : (sourceHashOfText(sourcePath, now) ?? null);
      const recorded = translation === undefined ? null : recordedSource(path, translation, kind);
      const state = translation === undefined ? 'missing' : recorded !== null && recorded === currentSource ? 'current' : 'stale';
      return {
        path,
        locale,
        sourcePath,
        state,
        recordedSource: recorded,
        currentSource,
        // A translation started from its English and not yet translated was made from no English version to look for.
        source: {
          now,
          ...(recorded && recorded !== UNTRANSLATED ? await englishWhenMade(input.branch, sourcePath, recorded) : { then: null, thenCommit: null }),
        },
      };
    },
  };
}
