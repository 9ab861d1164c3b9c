// Several editors: named accounts, each with a role and tokens of its own, and the audit trail of what each did.
// `ADMIN_TOKEN` stays the owner's (a publisher, account id `owner`); the others are kept by the service under
// DATA_DIR, or in Redis with RATE_LIMIT_STORE=redis://… so every instance sees the same accounts at once.
import { z } from 'zod';
import { defineOperation } from './define.ts';
import { DateTime, PlainText, TEXT, wholeNumber } from './shared.ts';
import { auditActions, Role } from './roles.ts';

export { auditActions, OWNER_ID, Role, roleAllows, roles, roleToCommitTo } from './roles.ts';

export const EditorId = z
  .string()
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'an editor id is lower-case letters, digits and hyphens')
  .describe('The account id (as listed; `owner` is ADMIN_TOKEN’s)');
const TokenId = z
  .string()
  .max(8)
  .regex(/^[a-z0-9]{8}$/, 'a token id is the 8 characters listed with the token')
  .describe('A token’s id as listed (never the token)');
/** A person's name as a commit shows it: one line, no angle brackets (it goes into `Name <email>`). */
const PersonName = z
  .string()
  .trim()
  .min(1, 'give the editor’s name')
  .max(100)
  .regex(/^[^\n\r<>]*$/, 'a name is one line without < or >')
  .meta(TEXT)
  .describe('The editor’s name, as their commits show it');
const Email = z.email('give an email address, as commits show it').max(254).describe('The editor’s email address, as their commits show it');

export const Account = z
  .object({
    id: EditorId,
    name: PlainText(100),
    email: z
      .string()
      .max(254)
      .regex(/^$|^[^\s@]+@[^\s@]+$/)
      .describe('The address their commits show (empty for the owner, whose commits keep the service’s identity)'),
    role: Role,
  })
  .meta({ id: 'Account' })
  .describe('An account: the owner (ADMIN_TOKEN) or an editor');

export const Editor = Account.extend({
  createdAt: DateTime.nullable().describe('null for the owner'),
  tokens: z
    .array(z.object({ id: TokenId, createdAt: DateTime, lastUsedAt: DateTime.nullable() }))
    .max(10)
    .describe('Its live tokens (ids only; a token is shown once, when it is made)'),
}).meta({ id: 'Editor' });

/** A token as it is issued: `vitae_`, its id, `_`, 32 random characters. */
const IssuedToken = z
  .string()
  .max(100)
  .regex(/^vitae_[a-z0-9]{8}_[A-Za-z0-9_-]+$/);

const ISSUED = 'The token, shown this once and stored only as a hash: give it to the editor (`vitae login`, or the console’s sign-in)';

export const whoami = defineOperation({
  name: 'whoami',
  summary: 'Who the credential belongs to: the account, its role and how it signed in',
  description:
    'The account of the bearer token or the console session: the owner (ADMIN_TOKEN, a publisher) or an editor, with the role that decides what it may do. 401 without a live credential.',
  rest: { method: 'GET', path: '/api/admin/whoami' },
  cli: 'admin whoami',
  input: z.object({}),
  output: Account.extend({ authenticated: z.literal(true), via: z.enum(['bearer', 'session']) }).meta({ id: 'WhoAmI' }),
  auth: 'admin',
  errors: ['unauthorized'],
  examples: { valid: [{ summary: 'The signed-in account', input: {} }] },
});

export const adminListEditors = defineOperation({
  name: 'admin_list_editors',
  summary: 'The accounts that may edit: the owner and each editor, with their roles and token ids',
  description:
    'The owner first, then each editor in the order they were added. Tokens are listed by id and date only: a token is shown once, when it is made. Publishers only.',
  rest: { method: 'GET', path: '/api/admin/editors' },
  cli: 'admin editors',
  input: z.object({}),
  output: z.object({ editors: z.array(Editor).max(1000) }).meta({ id: 'Editors' }),
  auth: 'admin',
  role: 'publisher',
  errors: ['unauthorized', 'forbidden'],
  examples: { valid: [{ summary: 'Every account', input: {} }] },
});

export const adminAddEditor = defineOperation({
  name: 'admin_add_editor',
  summary: 'Add an editor: a name, an email and a role; answers the editor’s token, shown once',
  description: 'The token is stored only as a hash; give it to the editor. Their commits are authored with this name and email.',
  rest: { method: 'POST', path: '/api/admin/editors' },
  cli: 'admin add-editor <name> <email>',
  input: z.object({ name: PersonName, email: Email, role: Role.default('editor') }),
  output: Editor.extend({ token: IssuedToken.describe(ISSUED) }).meta({ id: 'NewEditor' }),
  effect: { destructive: false, idempotent: false },
  auth: 'admin',
  role: 'publisher',
  audit: (_input, output) => ({ action: 'editor-added', detail: `${output.name} <${output.email}> (${output.id}) as ${output.role}` }),
  errors: ['unauthorized', 'forbidden', 'bad_request'],
  examples: {
    valid: [{ summary: 'A career coach who drafts on dev', input: { name: 'Ada Coach', email: 'ada@example.org', role: 'editor' } }],
    invalid: [{ summary: 'An email that is not an address', input: { name: 'Ada Coach', email: 'ada at example.org' } }],
  },
});

export const adminUpdateEditor = defineOperation({
  name: 'admin_update_editor',
  summary: 'Change an editor: name, email or role; issue a new token or revoke one',
  description:
    'A role change applies to the next request. `newToken: true` answers a new token (shown once); `revokeToken` ends that token and every console session opened with it, on every instance.',
  rest: { method: 'PATCH', path: '/api/admin/editors/{id}' },
  cli: 'admin update-editor <id>',
  input: z.object({
    id: EditorId,
    name: PersonName.optional(),
    email: Email.optional(),
    role: Role.optional(),
    newToken: z.boolean().optional().describe('Issue another token for the editor (answered once, in `token`)'),
    revokeToken: TokenId.optional(),
  }),
  output: Editor.extend({ token: IssuedToken.optional().describe(ISSUED) }).meta({ id: 'UpdatedEditor' }),
  effect: { destructive: true, idempotent: false },
  auth: 'admin',
  role: 'publisher',
  audit: (input) => ({
    action: input.revokeToken ? 'token-revoked' : input.newToken ? 'token-issued' : 'editor-updated',
    detail: `${input.id}: ${
      [
        input.name !== undefined && `name ${input.name}`,
        input.email !== undefined && `email ${input.email}`,
        input.role !== undefined && `role ${input.role}`,
        input.newToken && 'a new token',
        input.revokeToken && `token ${input.revokeToken} revoked`,
      ]
        .filter(Boolean)
        .join(', ') || 'nothing changed'
    }`,
  }),
  errors: ['unauthorized', 'forbidden', 'bad_request', 'not_found'],
  examples: {
    invalid: [{ summary: 'A role there is not', input: { id: 'ada-coach', role: 'admin' } }],
  },
});

export const adminRevokeEditor = defineOperation({
  name: 'admin_revoke_editor',
  summary: 'Remove an editor: every token and console session of theirs ends, on every instance',
  description: 'Their commits keep their name. The owner (ADMIN_TOKEN) cannot be removed: rotate ADMIN_TOKEN instead.',
  rest: { method: 'DELETE', path: '/api/admin/editors/{id}' },
  cli: 'admin remove-editor <id>',
  input: z.object({ id: EditorId }),
  output: z.object({ id: EditorId, removed: z.literal(true) }).meta({ id: 'RemovedEditor' }),
  effect: { destructive: true, idempotent: true },
  auth: 'admin',
  role: 'publisher',
  audit: (input) => ({ action: 'editor-removed', detail: input.id }),
  errors: ['unauthorized', 'forbidden', 'bad_request', 'not_found'],
});

export const AuditEvent = z
  .object({
    id: z
      .string()
      .max(20)
      .regex(/^[0-9]+$/)
      .describe('Where the event stands in the trail (newest have the highest)'),
    at: DateTime,
    action: z.enum(auditActions),
    actor: z
      .object({ id: EditorId, name: PlainText(100) })
      .nullable()
      .describe('Who did it (null: nobody signed in, e.g. a failed sign-in)'),
    ip: PlainText(64).describe('The client address it came from'),
    detail: PlainText(500).describe('What: the branch and commit, the account changed… never a token or a body'),
  })
  .meta({ id: 'AuditEvent' });

const AuditCursor = z
  .string()
  .max(20)
  .regex(/^[0-9]{1,20}$/, 'a cursor is the `next` of the page before')
  .describe('Where the page starts (the `next` of the page before)');

export const adminAudit = defineOperation({
  name: 'admin_audit',
  summary: 'The audit trail, newest first: sign-ins, failed sign-ins, commits, promotes and account changes',
  description:
    'Who did what, when and from which address, newest first; pass `next` back as `cursor` for older events. Never a token or a request body. Publishers only.',
  rest: { method: 'GET', path: '/api/admin/audit' },
  cli: 'admin audit',
  input: z.object({ cursor: AuditCursor.optional(), limit: wholeNumber(z.number().int().min(1).max(200)).default(50) }),
  output: z.object({ events: z.array(AuditEvent).max(200), next: AuditCursor.nullable() }).meta({ id: 'AuditTrail' }),
  auth: 'admin',
  role: 'publisher',
  errors: ['unauthorized', 'forbidden', 'bad_request'],
  examples: {
    valid: [{ summary: 'The last twenty events', input: { limit: 20 } }],
    invalid: [{ summary: 'A page of a thousand', input: { limit: 1000 } }],
  },
});

export const editorOperations = [whoami, adminListEditors, adminAddEditor, adminUpdateEditor, adminRevokeEditor, adminAudit] as const;
