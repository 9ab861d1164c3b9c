// The console's frame: every console page needs a session (without one it goes to sign-in and comes back),
// works on one branch (dev by default, switchable), and shows how many edits are pending. Not indexed, not
// in the sitemap, not linked from the public site. The header names who is signed in (`whoami`) and offers only what
// their role may do: an editor works on dev, and is told why main and promote are not theirs.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, isRouteErrorResponse, NavLink, Outlet, useLoaderData, useLocation, useNavigate, useRouteError } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { troubleFromBody, type ErrorBody } from '../admin/api.ts';
import accountStyles from '../admin/accounts.css';
import adminStyles from '../admin/admin.css';
import formStyles from '../admin/schema-form.css';
import { useChangeSet } from '../admin/change-set.ts';
import { PUBLISHER_NEEDED, RoleBadge } from '../admin/account.tsx';
import { asEditor, branchOf, requireEditor } from '../admin/session.server.ts';
import { consoleHref, TroubleNotice, useBranch } from '../admin/ui.tsx';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: adminStyles },
  { rel: 'stylesheet', href: formStyles },
  { rel: 'stylesheet', href: accountStyles },
];

/** Tells the root layout to leave out the public site's header, footer and chat. */
export const handle = { console: true };

export const meta: MetaFunction = () => [{ title: 'Console · Vitae' }, { name: 'robots', content: 'noindex, nofollow' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireEditor(request, context);
  const account = await asEditor(request, context, 'whoami', {});
  return { branch: branchOf(request), account };
}

/**
 * After a navigation inside the console, focus goes to the new page's heading (as a screen reader or keyboard user
 * expects of a new page), not to the body; the first load leaves focus where the browser puts it.
 */
function useFocusHeadingOnNavigation(key: string) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const heading = document.querySelector<HTMLElement>('#console-main h1');
    if (!heading) return;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
  }, [key]);
}

export default function ConsoleFrame() {
  const { account } = useLoaderData<typeof loader>();
  const publisher = account.role === 'publisher';
  const branch = useBranch();
  const { changes } = useChangeSet(branch);
  const other = useChangeSet(branch === 'dev' ? 'main' : 'dev').changes;
  const pending = Object.keys(changes).length;
  const unsaved = pending + Object.keys(other).length;
  const location = useLocation();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  useFocusHeadingOnNavigation(location.pathname + location.search);
  const switchTo = (next: 'main' | 'dev') => {
    const params = new URLSearchParams(location.search);
    if (next === 'dev') params.delete('branch');
    else params.set('branch', next);
    const qs = params.toString();
    navigate(`${location.pathname}${qs ? `?${qs}` : ''}`);
  };
  const tab = (to: string, label: string, extra?: string) => (
    <NavLink to={consoleHref(to, branch)} end={to === '/admin'} className={({ isActive }) => (isActive ? 'tab active' : 'tab')}>
      {label}
      {extra ? <span className="tab-count">{extra}</span> : null}
    </NavLink>
  );
  return (
    <div className="console">
      <a className="skip-link" href="#console-main">
        Skip to content
      </a>
      <header className="console-header">
        <p className="console-name">
          <strong>Vitae</strong> console
        </p>
        <nav aria-label="Console">
          {tab('/admin', 'Files')}
          {tab('/admin/review', 'Review', pending ? String(pending) : undefined)}
          {tab('/admin/publish', 'Publish')}
          {tab('/admin/history', 'History')}
          {publisher ? tab('/admin/editors', 'Editors') : null}
          {publisher ? tab('/admin/audit', 'Audit') : null}
        </nav>
        <div className="branch-switch" role="group" aria-label="Branch">
          {(['dev', 'main'] as const).map((b) => {
            // An editor's work goes to dev: main is not offered to them, and the header says why.
            const closed = b === 'main' && !publisher && branch !== 'main';
            return (
              <button
                key={b}
                type="button"
                className={b === branch ? 'branch active' : 'branch'}
                aria-pressed={b === branch}
                disabled={closed}
                title={closed ? PUBLISHER_NEEDED : undefined}
                aria-describedby={closed ? 'branch-reason' : undefined}
                onClick={() => switchTo(b)}
              >
                {b === 'dev' ? 'dev (preview)' : 'main (live)'}
              </button>
            );
          })}
        </div>
        {publisher ? null : (
          <p className="branch-reason muted" id="branch-reason">
            main needs the publisher role
          </p>
        )}
        <p className="console-who">
          <span className="visually-hidden">Signed in as</span>{' '}
          <strong className="who-name" title={account.email ? `${account.name} <${account.email}>` : account.name}>
            {account.name}
          </strong>{' '}
          <RoleBadge role={account.role} />
        </p>
        <Form
          method="post"
          action="/admin/logout"
          onSubmit={(event) => {
            // Uncommitted edits stay in this browser after signing out: say so first, and offer to review them.
            if (unsaved && !leaving) {
              event.preventDefault();
              setLeaving(true);
            }
          }}
        >
          <button type="submit" className="button ghost small">
            Sign out
          </button>
          {leaving ? (
            <div className="notice notice-warning sign-out-warning" role="alertdialog" aria-labelledby="sign-out-title">
              <p id="sign-out-title">
                {unsaved} file{unsaved === 1 ? ' has' : 's have'} edits that are not committed. They stay in this browser after you sign out, for whoever signs
                in here next.
              </p>
              <div className="actions">
                <NavLink
                  className="button small"
                  to={consoleHref('/admin/review', pending ? branch : branch === 'dev' ? 'main' : 'dev')}
                  onClick={() => setLeaving(false)}
                >
                  Review them
                </NavLink>
                <button type="submit" className="button ghost small danger" autoFocus>
                  Sign out anyway
                </button>
                <button type="button" className="button ghost small" onClick={() => setLeaving(false)}>
                  Cancel
                </button>
              </div>
            </div>
          ) : null}
        </Form>
      </header>
      <p className="narrow-notice" role="note">
        The console edits on screens at least 1024 pixels wide. On this screen you can look around, but not edit.
      </p>
      {branch === 'main' && !publisher ? (
        <div className="pending-banner role-banner" role="status">
          <span>You are looking at main, the live site. {PUBLISHER_NEEDED} Your edits go to dev.</span>
          <button type="button" className="button small" onClick={() => switchTo('dev')}>
            Work on dev
          </button>
        </div>
      ) : null}
      {pending && !location.pathname.startsWith('/admin/review') ? (
        <div className="pending-banner" role="status">
          <span>
            {pending} file{pending === 1 ? ' has' : 's have'} edits on {branch} that are kept in this browser and not committed yet.
          </span>
          <NavLink className="button small" to={consoleHref('/admin/review', branch)}>
            Review and commit
          </NavLink>
        </div>
      ) : null}
      <main id="console-main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}

/** A console page that failed to load says why, in the operation's words, inside the console's frame. */
export function ErrorBoundary() {
  const error = useRouteError();
  const trouble = isRouteErrorResponse(error)
    ? troubleFromBody(
        error.status,
        (typeof error.data === 'object' && error.data ? error.data : { code: 'error', message: String(error.data ?? error.statusText) }) as ErrorBody,
      )
    : troubleFromBody(500, { code: 'internal', message: 'The page could not be shown; the server log has the details.' });
  return (
    <div className="console">
      <main id="console-main" className="console-page">
        <TroubleNotice trouble={trouble} />
        <p>
          <a className="button small" href="/admin">
            Back to the files
          </a>
        </p>
      </main>
    </div>
  );
}
