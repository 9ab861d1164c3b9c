// Who wrote a change, for the commit that records it: the account of the admin principal making the call. The
// owner (ADMIN_TOKEN) keeps the service's own identity, as before there were editors; an editor's commits are
// theirs (the local backend's git author; on GitHub a `Co-authored-by:` trailer, since the token's user commits).
import type { CommitAuthor } from '../repo/git-backend.ts';
import type { CallContext } from './implement.server.ts';

/** The author of the commits a call makes; undefined for the owner, a call without an account, or no context at all. */
export function authorOf(ctx: CallContext | undefined): CommitAuthor | undefined {
  const principal = ctx?.principal as { kind?: unknown; account?: unknown } | undefined;
  if (principal?.kind !== 'admin' || !principal.account || typeof principal.account !== 'object') return undefined;
  const { id, name, email } = principal.account as { id?: unknown; name?: unknown; email?: unknown };
  if (id === 'owner' || typeof name !== 'string' || typeof email !== 'string' || !name.trim() || !email.trim()) return undefined;
  return { name, email };
}
