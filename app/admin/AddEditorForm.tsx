// Adding an editor: a name and an email (the commits they make are authored with them) and a role, editor by
// default. What the service finds wrong is said beside the field it is about.
import { useState, type FormEvent } from 'react';
import { roleSummary, type Role } from './account.tsx';
import { troubleOf } from './api.ts';
import type { ProblemOut } from './types.ts';

export function AddEditorForm({ busy, onAdd }: { busy: boolean; onAdd(input: { name: string; email: string; role: Role }): Promise<void> }) {
  const [problems, setProblems] = useState<ProblemOut[]>([]);
  const [sending, setSending] = useState(false);
  const about = (field: string) => problems.filter((p) => p.pointer === `/${field}`).map((p) => p.message);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setSending(true);
    try {
      await onAdd({
        name: String(data.get('name') ?? ''),
        email: String(data.get('email') ?? ''),
        role: data.get('role') === 'publisher' ? 'publisher' : 'editor',
      });
      setProblems([]);
      form.reset();
    } catch (error) {
      setProblems(troubleOf(error).problems);
    } finally {
      setSending(false);
    }
  }

  const field = (name: 'name' | 'email', label: string, props: { type: string; autoComplete: string; placeholder: string }) => {
    const errors = about(name);
    return (
      <div className="add-field">
        <label htmlFor={`new-${name}`}>{label}</label>
        <input
          id={`new-${name}`}
          name={name}
          required
          maxLength={name === 'name' ? 100 : 254}
          aria-invalid={errors.length ? true : undefined}
          aria-describedby={errors.length ? `new-${name}-error` : undefined}
          {...props}
        />
        {errors.length ? (
          <p className="field-error" id={`new-${name}-error`}>
            {errors.join(' ')}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <section className="add-editor" aria-labelledby="add-title">
      <h2 id="add-title">Add an editor</h2>
      <p className="muted">Their commits are authored with this name and email. They get a token of their own, shown once, to sign in with.</p>
      <form onSubmit={(event) => void submit(event)} className="add-form">
        {field('name', 'Name', { type: 'text', autoComplete: 'off', placeholder: 'Ada Coach' })}
        {field('email', 'Email', { type: 'email', autoComplete: 'off', placeholder: 'ada@example.org' })}
        <div className="add-field">
          <label htmlFor="new-role">Role</label>
          <select id="new-role" name="role" defaultValue="editor" aria-describedby="new-role-help">
            <option value="editor">editor</option>
            <option value="publisher">publisher</option>
          </select>
          <p className="muted" id="new-role-help">
            An editor {roleSummary.editor}; a publisher {roleSummary.publisher}.
          </p>
        </div>
        <button type="submit" className="button" disabled={busy || sending}>
          {sending ? 'Adding…' : 'Add editor'}
        </button>
      </form>
    </section>
  );
}
