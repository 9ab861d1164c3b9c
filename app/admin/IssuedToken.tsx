// A token just made for an editor, shown this once: the service keeps only its hash. A copy button, the token
// selectable by hand where the clipboard is not available, and a plain warning that it will not be shown again.
import { useEffect, useRef, useState } from 'react';

export interface Issued {
  id: string;
  name: string;
  token: string;
  /** Whether the account was just added (else a new token of an existing one). */
  added: boolean;
}

export function IssuedToken({ issued, onDone }: { issued: Issued; onDone(): void }) {
  const box = useRef<HTMLDivElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  useEffect(() => {
    setCopied(null);
    box.current?.focus();
  }, [issued]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(issued.token);
      setCopied('yes');
    } catch {
      field.current?.select();
      setCopied('no');
    }
  }

  return (
    <div className="notice notice-success issued-token" role="region" aria-labelledby="issued-title" tabIndex={-1} ref={box}>
      <p className="notice-title" id="issued-title">
        {issued.added ? `${issued.name} is added. Their token:` : `A new token for ${issued.name}:`}
      </p>
      <div className="token-row">
        <label className="visually-hidden" htmlFor="issued-token">
          Token for {issued.name}
        </label>
        <input id="issued-token" ref={field} readOnly value={issued.token} spellCheck={false} onFocus={(event) => event.target.select()} />
        <button type="button" className="button small" onClick={() => void copy()}>
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p className="token-warning" role="note">
        <strong>Copy it now: it is not shown again.</strong> Only its hash is kept. Give it to {issued.name} privately; they sign in to the console with it, or
        run <code>vitae login</code>. If it is lost, issue a new one and revoke this one.
      </p>
      {copied === 'no' ? (
        <p className="muted" role="status">
          This browser would not copy it: the token is selected, copy it with Ctrl+C (⌘C on a Mac).
        </p>
      ) : copied === 'yes' ? (
        <p className="muted" role="status">
          Copied to the clipboard.
        </p>
      ) : null}
      <button type="button" className="button ghost small" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}
