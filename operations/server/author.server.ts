// Who wrote a change, for the commit that records it: the account of the admin principal making the call. The
// owner (ADMIN_TOKEN) keeps the service's own identity, as before there were editors; an editor's commits are
// theirs (the local backend's git author; on GitHub a `Co-authored-by:` trailer, since the token's user commits).
import type { CommitAuthor } from '../repo/git-backend.ts';
import type { CallContext } from './implement.server.ts';
import { OWNER_ID } from '../contract/roles.ts';

/** The author of the commits a call makes; undefined for the owner, a call without an account, or no context at all. */
export function authorOf(ctx: CallContext | undefined): CommitAuthor | undefined {
  const account = ctx?.principal.kind === 'admin' ? ctx.principal.account : undefined;
  if (!account || account.id === OWNER_ID || !account.name?.trim() || !account.email?.trim()) return undefined;
  return { name: account.name, email: account.email };
}
