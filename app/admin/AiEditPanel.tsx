// Ask the model for an edit of the unsaved text; see its proposal over the current text in a merge view,
// accept or reject each chunk (or all), see the proposal's validation problems before using it. The
// result goes back into the editor and so into the change set: admin_ai_edit never commits.
import { useEffect, useRef, useState } from 'react';
import { callOperation, troubleOf, type Trouble } from './api.ts';
import type { ProposalView } from './codemirror.client.ts';
import type { ProblemOut } from './types.ts';
import { Shortcut, TroubleNotice, type Branch } from './ui.tsx';

interface Proposal {
  /** The editor's text the proposal was made from. */
  from: string;
  proposed: string;
  problems: ProblemOut[];
}

export function AiEditPanel({
  path,
  branch,
  text,
  onApply,
  onClose,
}: {
  path: string;
  branch: Branch;
  text: string;
  onApply(next: string): void;
  onClose(): void;
}) {
  const [instruction, setInstruction] = useState('');
  const [asking, setAsking] = useState(false);
  const [proposal, setProposal] = useState<Proposal | null>(null);
  const [left, setLeft] = useState(0);
  const [trouble, setTrouble] = useState<Trouble | null>(null);
  const [configured, setConfigured] = useState<boolean | null>(null);
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<ProposalView | null>(null);

  useEffect(() => {
    fetch('/api/health')
      .then((res) => res.json() as Promise<{ chat?: { configured?: boolean } }>)
      .then((health) => setConfigured(Boolean(health.chat?.configured)))
      .catch(() => setConfigured(true)); // unknown: let the request itself say
  }, []);

  useEffect(() => {
    if (!proposal || !host.current) return;
    let cancelled = false;
    // CodeMirror comes with the first proposal, not with the page.
    void import('./codemirror.client.ts').then(({ createProposalView }) => {
      if (cancelled || !host.current) return;
      const instance = createProposalView({
        parent: host.current,
        current: proposal.from,
        proposed: proposal.proposed,
        path,
        label: `The model’s proposal for ${path}`,
        onChange: setLeft,
      });
      view.current = instance;
      setLeft(instance.pending());
    });
    return () => {
      cancelled = true;
      view.current?.destroy();
      view.current = null;
    };
  }, [proposal, path]);

  async function ask(event: React.FormEvent) {
    event.preventDefault();
    if (!instruction.trim()) return;
    setAsking(true);
    setTrouble(null);
    try {
      const answer = await callOperation('admin_ai_edit', { path, branch, instruction, content: text });
      setProposal({ from: text, proposed: answer.proposed, problems: answer.problems });
    } catch (error) {
      setTrouble(troubleOf(error));
    } finally {
      setAsking(false);
    }
  }

  const changedSince = proposal && proposal.from !== text;
  return (
    <aside className="side-panel" aria-labelledby="ai-title">
      <div className="panel-head">
        <h2 id="ai-title">AI edit</h2>
        <button type="button" className="button ghost small" onClick={onClose}>
          Close <Shortcut keys="Escape" />
        </button>
      </div>
      {configured === false ? (
        <div className="notice" role="note">
          <p>AI edits need a model provider, and this service has none configured.</p>
          <p>
            Set <code>OPENAI_API_KEY</code> for OpenAI, or <code>OPENAI_BASE_URL</code> for any OpenAI-compatible server (Ollama, vLLM, llama.cpp), then restart
            the service.
          </p>
        </div>
      ) : (
        <form onSubmit={ask} className="ai-form">
          <label htmlFor="ai-instruction">What should change?</label>
          <textarea
            id="ai-instruction"
            value={instruction}
            onChange={(e) => setInstruction(e.target.value)}
            rows={3}
            maxLength={2000}
            placeholder="e.g. Make the summary one sentence and mention the 48 hotels."
          />
          <button type="submit" className="button small" disabled={asking || !instruction.trim()}>
            {asking ? 'Asking the model…' : proposal ? 'Ask again' : 'Propose an edit'}
          </button>
        </form>
      )}
      {trouble ? <TroubleNotice trouble={trouble} onDismiss={() => setTrouble(null)} /> : null}
      {proposal ? (
        <section aria-labelledby="proposal-title" className="proposal">
          <h3 id="proposal-title">The proposal</h3>
          <p className="muted">
            Green is proposed, red is your text. Accept or reject each change;{' '}
            {left ? `${left} change${left === 1 ? '' : 's'} still to decide.` : 'every change is decided.'}
          </p>
          {proposal.problems.length ? (
            <div className="notice notice-warning" role="status">
              <p>
                As proposed, the file would have {proposal.problems.length} problem{proposal.problems.length === 1 ? '' : 's'}:
              </p>
              <ul className="problem-list">
                {proposal.problems.map((p, i) => (
                  <li key={i}>
                    {p.line ? `Line ${p.line}: ` : ''}
                    {p.message}
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <p className="ok">As proposed, the whole tree stays valid.</p>
          )}
          <div className="proposal-host" ref={host} />
          {changedSince ? <p className="field-error">You have typed in the file since asking; using this replaces that typing.</p> : null}
          <div className="actions">
            <button type="button" className="button ghost small" onClick={() => view.current?.acceptAll()} disabled={!left}>
              Accept all
            </button>
            <button type="button" className="button small" onClick={() => view.current && onApply(view.current.text())}>
              Use this text
            </button>
            <button type="button" className="button ghost small" onClick={() => setProposal(null)}>
              Discard the proposal
            </button>
          </div>
        </section>
      ) : null}
    </aside>
  );
}
