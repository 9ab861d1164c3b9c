// One account on the Editors page: its name, email and role (changeable), its tokens by id with when each was made
// and last used (revocable), a new token, and removing the editor — each destructive step confirmed first. The owner
// (ADMIN_TOKEN) is listed but managed by rotating ADMIN_TOKEN, not here.
import { useState, type ReactNode } from 'react';
import { RoleBadge, roleSummary, type Role } from './account.tsx';
import type { EditorOut } from './types.ts';
import { Shortcut, TimeAgo } from './ui.tsx';

/** A change to run on the service; the page runs it, shows its failure, and reloads the list. */
export type Run = (work: () => Promise<string | undefined>) => Promise<boolean>;

export interface AccountActions {
  setRole(role: Role): Promise<string | undefined>;
  newToken(): Promise<string | undefined>;
  revokeToken(tokenId: string): Promise<string | undefined>;
  remove(): Promise<string | undefined>;
}

/** A question before a destructive step, in place: what will happen, then the step or Cancel. */
function Confirm({ id, children, action, onConfirm, onCancel }: { id: string; children: ReactNode; action: string; onConfirm(): void; onCancel(): void }) {
  return (
    <div
      className="notice notice-warning"
      role="alertdialog"
      aria-labelledby={id}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <p id={id}>{children}</p>
      <button type="button" className="button small danger" autoFocus onClick={onConfirm}>
        {action}
      </button>
      <button type="button" className="button ghost small" onClick={onCancel}>
        Cancel <Shortcut keys="Escape" />
      </button>
    </div>
  );
}

type Asking = { kind: 'remove' } | { kind: 'revoke'; tokenId: string } | null;

export function AccountCard({ account, self, busy, run, actions }: { account: EditorOut; self: boolean; busy: boolean; run: Run; actions: AccountActions }) {
  const [asking, setAsking] = useState<Asking>(null);
  const owner = account.createdAt === null;
  const heading = `account-${account.id}`;
  const confirmThen = (work: () => Promise<string | undefined>) => () => {
    setAsking(null);
    void run(work);
  };
  return (
    <li className="account" aria-labelledby={heading}>
      <div className="account-head">
        <h2 id={heading}>
          {account.name}
          {self ? <span className="muted"> (you)</span> : null}
        </h2>
        <span className="account-email">{account.email ? account.email : <span className="muted">no email: commits keep the service’s name</span>}</span>
        {owner ? (
          <RoleBadge role={account.role} />
        ) : (
          <span className="role-field">
            <label htmlFor={`role-${account.id}`}>
              Role<span className="visually-hidden"> of {account.name}</span>
            </label>
            <select
              id={`role-${account.id}`}
              value={account.role}
              disabled={busy}
              onChange={(event) => void run(() => actions.setRole(event.target.value as Role))}
            >
              <option value="editor">editor</option>
              <option value="publisher">publisher</option>
            </select>
          </span>
        )}
      </div>
      <p className="muted account-role">
        {owner
          ? 'The owner: signs in with ADMIN_TOKEN, a publisher. To replace that token, change ADMIN_TOKEN and restart the service.'
          : `${account.role === 'editor' ? 'An editor' : 'A publisher'}: ${roleSummary[account.role]}. Added `}
        {owner ? null : <TimeAgo when={account.createdAt!} />}
        {owner ? null : '.'}
      </p>
      {owner ? null : (
        <>
          <h3 className="visually-hidden">Tokens of {account.name}</h3>
          {account.tokens.length ? (
            <ul className="token-list" aria-label={`Tokens of ${account.name}`}>
              {account.tokens.map((token) => (
                <li key={token.id}>
                  Token <code>{token.id}</code> · made <TimeAgo when={token.createdAt} /> ·{' '}
                  {token.lastUsedAt ? (
                    <>
                      last used <TimeAgo when={token.lastUsedAt} />
                    </>
                  ) : (
                    'never used'
                  )}{' '}
                  <button
                    type="button"
                    className="button ghost small danger"
                    disabled={busy}
                    aria-label={`Revoke token ${token.id} of ${account.name}`}
                    onClick={() => setAsking({ kind: 'revoke', tokenId: token.id })}
                  >
                    Revoke…
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No live token: {account.name} cannot sign in until you issue one.</p>
          )}
          {asking?.kind === 'revoke' ? (
            <Confirm
              id={`revoke-${account.id}`}
              action="Revoke the token"
              onCancel={() => setAsking(null)}
              onConfirm={confirmThen(() => actions.revokeToken(asking.tokenId))}
            >
              Revoke token <code>{asking.tokenId}</code> of {account.name}? It stops working at once, and every console session opened with it ends.
            </Confirm>
          ) : null}
          {asking?.kind === 'remove' ? (
            <Confirm id={`remove-${account.id}`} action={`Remove ${account.name}`} onCancel={() => setAsking(null)} onConfirm={confirmThen(actions.remove)}>
              Remove {account.name}? Their {account.tokens.length === 1 ? 'token' : `${account.tokens.length} tokens`} and every console session of theirs end
              at once. Their commits keep their name.
            </Confirm>
          ) : null}
          <div className="actions">
            <button type="button" className="button ghost small" disabled={busy} onClick={() => void run(actions.newToken)}>
              Issue a new token
            </button>
            <button type="button" className="button ghost small danger" disabled={busy} onClick={() => setAsking({ kind: 'remove' })}>
              Remove {account.name}…
            </button>
          </div>
        </>
      )}
    </li>
  );
}
