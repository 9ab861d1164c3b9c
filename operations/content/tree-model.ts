// A valid checked tree's content model, made once per tree (tree.ts): every file's parse is the one its check holds,
// so a model shares the files of the model before it that did not change.
import type { DocumentName, LensId, Locale } from '../contract/shared.ts';
import type { CheckedTree, FileCheck } from './file-check.ts';
import { RELATED_TERMS_PATH } from './locate.ts';
import type { BriefFields, ContentModel, DocumentFields, EntryFile, LensFields, RelatedTerms, Site, SkillFields, SourceFile, TranslationFile } from './model.ts';
import type { PlaceTable, SubjectNames } from './schema.ts';

/** A valid tree's model (made once per tree). */
const models = new WeakMap<CheckedTree, ContentModel>();
/** Each translation's file in a model, by whether it is stale (a model's are shared with the next's). */
const translationFiles = new WeakMap<FileCheck, [TranslationFile?, TranslationFile?]>();

export function* modelSteps(tree: CheckedTree): Generator<void, ContentModel> {
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
    subjectNames: (checks.get(RELATED_TERMS_PATH)?.fields as { names: SubjectNames } | undefined)?.names ?? {},
  };
  models.set(tree, model);
  return model;
}
