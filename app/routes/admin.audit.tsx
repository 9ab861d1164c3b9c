// Audit (publishers only): the trail of sign-ins, failed sign-ins, commits, promotes and account changes, newest
// first, a page at a time (older pages by the trail's cursor). Who, when, from which address and what — never a
// token or a body. An editor who opens it is told it needs the publisher role.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { NeedsPublisher } from '../admin/account.tsx';
import { asEditor, publisherRead, requireEditor } from '../admin/session.server.ts';
import type { AuditEventOut } from '../admin/types.ts';
import { ConsoleLink, TimeAgo } from '../admin/ui.tsx';

const PAGE = 50;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireEditor(request, context);
  const params = new URL(request.url).searchParams;
  const cursor = params.get('cursor') ?? undefined;
  // The page size (?limit=, as the operation takes it) is kept from page to page; the operation checks it.
  const limit = params.get('limit') ?? undefined;
  const trail = await publisherRead(() => asEditor(request, context, 'admin_audit', { cursor, limit: limit ?? PAGE }));
  return { cursor: cursor ?? null, limit: limit ?? null, events: trail.value?.events ?? [], next: trail.value?.next ?? null, denied: trail.denied };
}

const actionLabel: Record<AuditEventOut['action'], string> = {
  'sign-in': 'signed in',
  'sign-in-failed': 'sign-in failed',
  'sign-out': 'signed out',
  commit: 'commit',
  promote: 'promote',
  'editor-added': 'editor added',
  'editor-updated': 'editor changed',
  'editor-removed': 'editor removed',
  'token-issued': 'token issued',
  'token-revoked': 'token revoked',
};

/** How an action looks in the trail: failures and removals stand out, publishing is marked. */
const tone = (action: AuditEventOut['action']) =>
  action === 'sign-in-failed' || action === 'editor-removed' || action === 'token-revoked'
    ? 'alert'
    : action === 'promote' || action === 'commit'
      ? 'write'
      : 'plain';

export default function AuditPage() {
  const { cursor, limit, events, next, denied } = useLoaderData<typeof loader>();
  if (denied !== null) {
    return (
      <div className="console-page">
        <div className="page-head">
          <h1 tabIndex={-1}>Audit trail</h1>
        </div>
        <NeedsPublisher what="Reading the audit trail" message={denied} />
      </div>
    );
  }
  return (
    <div className="console-page">
      <div className="page-head">
        <h1 tabIndex={-1}>Audit trail</h1>
        <p className="muted">
          Sign-ins, failed sign-ins, commits, promotes and changes to accounts, newest first: who, when, from which address and what. Never a token or a text.
        </p>
        {cursor ? (
          <p>
            <ConsoleLink to="/admin/audit" query={{ limit: limit ?? undefined }}>
              Back to the newest
            </ConsoleLink>
          </p>
        ) : null}
      </div>
      {events.length ? (
        // Scrolls sideways inside this box on a narrow screen (reachable by keyboard, named for the screen reader).
        <div className="table-scroll" role="region" aria-label="Audit events" tabIndex={0}>
          <table className="audit">
            <caption className="visually-hidden">Audit events, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">Who</th>
                <th scope="col">From</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event.id} className="audit-event" data-action={event.action}>
                  <td className="audit-when">
                    <TimeAgo when={event.at} />
                  </td>
                  <td>
                    <span className={`audit-action audit-${tone(event.action)}`}>{actionLabel[event.action]}</span>
                  </td>
                  <td>{event.actor ? event.actor.name : <span className="muted">nobody signed in</span>}</td>
                  <td>
                    <code>{event.ip}</code>
                  </td>
                  <td className="audit-detail">{event.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">{cursor ? 'No older events.' : 'Nothing recorded yet.'}</p>
      )}
      {next ? (
        <p>
          <ConsoleLink to="/admin/audit" query={{ cursor: next, limit: limit ?? undefined }} className="button ghost">
            Older events
          </ConsoleLink>
        </p>
      ) : null}
    </div>
  );
}
