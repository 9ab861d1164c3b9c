// Editors (publishers only): every account that may edit, with its role and its tokens by id; add an editor (their
// token shown once), change a role, issue or revoke a token, remove an editor. The browser runs the account
// operations at their REST routes with the console's session, as every console page does; the service decides who
// may (an editor who opens this page is told it needs the publisher role).
import type { LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData, useRevalidator } from '@remix-run/react';
import { useState } from 'react';
import { NeedsPublisher, useAccount } from '../admin/account.tsx';
import { AccountCard, type AccountActions, type Run } from '../admin/AccountCard.tsx';
import { AddEditorForm } from '../admin/AddEditorForm.tsx';
import { callOperation, troubleOf, type Trouble } from '../admin/api.ts';
import { IssuedToken, type Issued } from '../admin/IssuedToken.tsx';
import { asEditor, publisherRead, requireEditor } from '../admin/session.server.ts';
import type { EditorOut } from '../admin/types.ts';
import { TroubleNotice } from '../admin/ui.tsx';

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireEditor(request, context);
  const listed = await publisherRead(() => asEditor(request, context, 'admin_list_editors', {}));
  return { editors: listed.value?.editors ?? [], denied: listed.denied };
}

/** What each button of an account's card asks of the service; each answers what to say when it is done. */
function actionsOf(account: EditorOut, setIssued: (issued: Issued) => void): AccountActions {
  const { id, name } = account;
  return {
    async setRole(role) {
      await callOperation('admin_update_editor', { id, role });
      return `${name} is now ${role === 'editor' ? 'an editor' : 'a publisher'}, from their next request on.`;
    },
    async newToken() {
      const updated = await callOperation('admin_update_editor', { id, newToken: true });
      if (updated.token) setIssued({ id, name, token: updated.token, added: false });
      return undefined;
    },
    async revokeToken(tokenId) {
      await callOperation('admin_update_editor', { id, revokeToken: tokenId });
      return `Token ${tokenId} of ${name} is revoked; its console sessions have ended.`;
    },
    async remove() {
      await callOperation('admin_revoke_editor', { id });
      return `${name} is removed: their tokens and sessions have ended.`;
    },
  };
}

export default function EditorsPage() {
  const { editors, denied } = useLoaderData<typeof loader>();
  const me = useAccount();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [trouble, setTrouble] = useState<Trouble | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [issued, setIssued] = useState<Issued | null>(null);

  const run: Run = async (work) => {
    setBusy(true);
    setTrouble(null);
    setSaid(null);
    try {
      const words = await work();
      if (words) setSaid(words);
      return true;
    } catch (error) {
      setTrouble(troubleOf(error));
      return false;
    } finally {
      setBusy(false);
      revalidator.revalidate();
    }
  };

  if (denied !== null) {
    return (
      <div className="console-page">
        <div className="page-head">
          <h1 tabIndex={-1}>Editors</h1>
        </div>
        <NeedsPublisher what="Managing editors" message={denied} />
      </div>
    );
  }
  return (
    <div className="console-page editors-page">
      <div className="page-head">
        <h1 tabIndex={-1}>Editors</h1>
        <p className="muted">
          Everyone who may edit, each with a token of their own. An editor commits to dev; a publisher also commits to main, promotes, and manages this list.
        </p>
      </div>
      {issued ? <IssuedToken issued={issued} onDone={() => setIssued(null)} /> : null}
      {trouble ? <TroubleNotice trouble={trouble} onDismiss={() => setTrouble(null)} /> : null}
      {said ? (
        <div className="notice notice-success" role="status">
          <p>{said}</p>
        </div>
      ) : null}
      <div className="editors-layout">
        <ol className="accounts" aria-label="Accounts">
          {editors.map((account) => (
            <AccountCard key={account.id} account={account} self={account.id === me?.id} busy={busy} run={run} actions={actionsOf(account, setIssued)} />
          ))}
        </ol>
        <AddEditorForm
          busy={busy}
          onAdd={async (input) => {
            setTrouble(null);
            setSaid(null);
            try {
              const added = await callOperation('admin_add_editor', input);
              setIssued({ id: added.id, name: added.name, token: added.token, added: true });
            } catch (error) {
              setTrouble(troubleOf(error));
              throw error;
            } finally {
              revalidator.revalidate();
            }
          }}
        />
      </div>
    </div>
  );
}
