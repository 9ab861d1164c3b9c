// The handlers of the account operations: who is signed in, and the publishers' management of editors. The rules
// (who may call them) are the operations' `role`, checked by invoke; the audit events are their `audit`.
import type { adminAddEditor, adminAudit, adminListEditors, adminRevokeEditor, adminUpdateEditor, whoami } from '../contract/editors.ts';
import { AppError } from '../contract/errors.ts';
import { OWNER_ID } from '../contract/roles.ts';
import type { AuditTrail } from './audit.server.ts';
import { owner, type EditorRecord, type EditorStore } from './editors.server.ts';
import type { Handlers } from './implement.server.ts';
import { unauthorized } from './auth.server.ts';

type AccountOps = readonly [
  typeof whoami,
  typeof adminListEditors,
  typeof adminAddEditor,
  typeof adminUpdateEditor,
  typeof adminRevokeEditor,
  typeof adminAudit,
];

const listed = ({ id, name, email, role, createdAt, tokens }: EditorRecord) => ({
  id,
  name,
  email,
  role,
  createdAt,
  tokens: tokens.map((t) => ({ id: t.id, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt })),
});

export function accountHandlers({ editors, audit }: { editors: EditorStore; audit: AuditTrail }): Handlers<AccountOps> {
  const notOwner = (id: string) => {
    if (id === OWNER_ID)
      throw new AppError('bad_request', 'The owner is ADMIN_TOKEN’s account: change ADMIN_TOKEN to replace it.', {
        errors: [{ pointer: '/id', message: 'the owner cannot be changed here' }],
      });
  };
  return {
    whoami(_input, ctx) {
      if (ctx.principal.kind !== 'admin') throw unauthorized();
      return { authenticated: true as const, via: ctx.principal.via, ...ctx.principal.account };
    },
    async admin_list_editors() {
      return { editors: [{ ...owner, createdAt: null, tokens: [] }, ...(await editors.list()).map(listed)] };
    },
    async admin_add_editor(input) {
      const { editor, token } = await editors.add(input);
      return { ...listed(editor), token };
    },
    async admin_update_editor({ id, ...change }) {
      notOwner(id);
      const { editor, token } = await editors.update(id, change);
      return { ...listed(editor), ...(token ? { token } : {}) };
    },
    async admin_revoke_editor({ id }) {
      notOwner(id);
      await editors.remove(id);
      return { id, removed: true as const };
    },
    admin_audit: (input) => audit.page(input),
  };
}
