// The roles of the accounts that edit: what each may do, checked by `invoke` from an operation's `role`; and what the
// audit trail records, which an operation's `audit` names for a call that succeeded.
import { z } from 'zod';

/** An `editor` commits to `dev` (and drafts with AI, translates); a `publisher` also commits to `main`, promotes and manages accounts. */
export const roles = ['editor', 'publisher'] as const;
export type Role = (typeof roles)[number];
export const Role = z.enum(roles).describe('editor: commits to dev only; publisher: also commits to main, promotes and manages editors');

/** Whether `role` may do what `needed` allows. */
export const roleAllows = (role: Role, needed: Role): boolean => needed === 'editor' || role === 'publisher';

/** The owner's account id: the one whose credential is ADMIN_TOKEN (a publisher). */
export const OWNER_ID = 'owner';

/** The role a commit to `branch` needs: the published branch is a publisher's. */
export const roleToCommitTo = (branch: string): Role => (branch === 'main' ? 'publisher' : 'editor');

/**
 * The budget of the admin operations a model answers (an AI edit, drafted translations), per account and per client
 * address: one editor's script cannot spend the model provider's quota for everyone, wherever they call from.
 */
export const MODEL_EDITS = { bucket: 'model-edits', points: 30, windowSeconds: 60 } as const;

/** What the audit trail records. */
export const auditActions = [
  'sign-in',
  'sign-in-failed',
  'sign-out',
  'commit',
  'promote',
  'editor-added',
  'editor-updated',
  'editor-removed',
  'token-issued',
  'token-revoked',
] as const;
export type AuditAction = (typeof auditActions)[number];
