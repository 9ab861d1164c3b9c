// The content model: what a valid content tree is once parsed (tree.ts makes it), typed from the file schemas.
import type { z } from 'zod';
import type { Problem } from '../contract/errors.ts';
import type { DocumentName, Kind, LensId, Locale, TranslationLocale } from '../contract/shared.ts';
import type { fileKinds, PlaceTable, RelatedTermsFile, SiteFile, SubjectNames } from './schema.ts';

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
  /** The subject's name as other scripts write it (the same file's `names`; none when absent). */
  subjectNames?: SubjectNames;
}

export interface LoadResult {
  model?: ContentModel;
  problems: Problem[];
}
