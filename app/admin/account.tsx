// Who is signed in to the console, as the console's frame read it through `whoami`, and what their role lets them
// do here. The console hides what a role cannot do and says why; the service refuses it anyway (403 `forbidden`).
import { useRouteLoaderData } from '@remix-run/react';
import type { WhoAmIOut } from './types.ts';

export type Role = WhoAmIOut['role'];

/** The words beside anything that only a publisher may do (a commit to main, promote). */
export const PUBLISHER_NEEDED = 'Publishing to main needs the publisher role — ask a publisher to promote.';

/** The signed-in account, from the console frame's loader (null outside the console's frame). */
export function useAccount(): WhoAmIOut | null {
  const data = useRouteLoaderData<{ account?: WhoAmIOut }>('routes/admin');
  return data?.account ?? null;
}

/** Whether the signed-in account may commit to main, promote and manage editors (a publisher). */
export function useMayPublish(): boolean {
  return useAccount()?.role === 'publisher';
}

/** What each role may do, in a line. */
export const roleSummary: Record<Role, string> = {
  editor: 'commits to dev (the preview) only',
  publisher: 'also commits to main, promotes and manages editors',
};

export function RoleBadge({ role }: { role: Role }) {
  return <span className={`role-badge role-${role}`}>{role}</span>;
}

/** What a page only publishers may open says to anyone else, instead of the page. */
export function NeedsPublisher({ what, message }: { what: string; message?: string }) {
  const account = useAccount();
  return (
    <div className="notice notice-warning needs-role" role="status">
      <p className="notice-title">{what} needs the publisher role</p>
      <p>
        {account ? (
          <>
            You are signed in as {account.name}, {account.role === 'editor' ? 'an' : 'a'} {account.role}: your role {roleSummary[account.role]}.{' '}
          </>
        ) : null}
        Ask a publisher if you need this.
      </p>
      {message ? <p className="muted">The service said: {message}</p> : null}
    </div>
  );
}
