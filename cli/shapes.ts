// The output types the formatters read, taken from the contract's schemas (types only: nothing is loaded).
import type { z } from 'zod';
import type { Document, EntryLong, EntryShort, Lens, SearchResult, SiteInfo } from '../operations/contract/public.ts';
import type {
  adminAiEdit,
  adminCompare,
  adminHistory,
  adminPreview,
  adminListFiles,
  adminReadFile,
  adminTranslate,
  adminTranslation,
  adminValidateChanges,
  CommitResult,
  ContentSchema,
  DeployRun,
} from '../operations/contract/admin.ts';
import type { askSubject } from '../operations/contract/agent.ts';
import type { matchRole } from '../operations/contract/match.ts';
import type { Problem } from '../operations/contract/errors.ts';

export type EntryList = { entries: z.output<typeof EntryShort>[]; total: number; next?: string | null };
export type EntryLongOut = z.output<typeof EntryLong>;
export type LensOut = z.output<typeof Lens>;
export type LensListOut = { lenses: LensOut[] };
export type SearchResultsOut = { query: string; results: z.output<typeof SearchResult>[] };
export type DocumentOut = z.output<typeof Document>;
export type SiteOut = z.output<typeof SiteInfo>;
export type ContentSchemaOut = z.output<typeof ContentSchema>;
export type CommitResultOut = z.output<typeof CommitResult>;
export type PromoteResultOut = CommitResultOut & { merged: boolean; fastForward: boolean };
export type DeployRunOut = z.output<typeof DeployRun>;
export type DeployRunsOut = { runs: DeployRunOut[] };
export type FileListOut = z.output<typeof adminListFiles.output>;
export type HistoryOut = z.output<typeof adminHistory.output>;
export type ComparisonOut = z.output<typeof adminCompare.output>;
export type PreviewOut = z.output<typeof adminPreview.output>;
export type ContentFileOut = z.output<typeof adminReadFile.output>;
export type ValidationResultOut = { valid: boolean; problems: Problem[] };
export type AnswerOut = z.output<typeof askSubject.output>;
export type RoleMatchOut = z.output<typeof matchRole.output>;
export type AiEditProposalOut = z.output<typeof adminAiEdit.output>;
export type TranslationDraftsOut = z.output<typeof adminTranslate.output>;
export type TranslationStatusOut = z.output<typeof adminTranslation.output>;
export type ChangeSetCheckOut = z.output<typeof adminValidateChanges.output>;
