// The shapes the console reads, typed from the operations' own output schemas (type-only: nothing of
// zod's runtime comes with them).
import type { z } from 'zod';
import type {
  adminCompare,
  adminHistory,
  adminListFiles,
  adminPreview,
  adminReadFile,
  adminTranslation,
  adminValidate,
  adminValidateChanges,
  CommitResult,
  ContentSchema,
  DeployRun,
} from '../../operations/contract/admin.ts';
import type { adminAudit, adminListEditors, whoami } from '../../operations/contract/editors.ts';
import type { ProblemSchema } from '../../operations/contract/shared.ts';

export type ContentSchemaOut = z.output<typeof ContentSchema>;
export type ProblemOut = z.output<typeof ProblemSchema>;
export type FileListOut = z.output<typeof adminListFiles.output>;
export type FileOut = FileListOut['files'][number];
export type ContentFileOut = z.output<typeof adminReadFile.output>;
export type ValidationOut = z.output<typeof adminValidate.output>;
export type HistoryOut = z.output<typeof adminHistory.output>;
export type ComparisonOut = z.output<typeof adminCompare.output>;
export type CommitResultOut = z.output<typeof CommitResult>;
export type DeployRunOut = z.output<typeof DeployRun>;
export type PreviewOut = z.output<typeof adminPreview.output>;
export type TranslationOut = z.output<typeof adminTranslation.output>;
export type ChangeSetCheckOut = z.output<typeof adminValidateChanges.output>;

export type WhoAmIOut = z.output<typeof whoami.output>;
export type EditorsOut = z.output<typeof adminListEditors.output>;
export type EditorOut = EditorsOut['editors'][number];
export type AuditOut = z.output<typeof adminAudit.output>;
export type AuditEventOut = AuditOut['events'][number];
