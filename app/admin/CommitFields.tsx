// The commit form's own parts on the review screen: the message (validated by conform with the operation's own
// schema, its text kept by the page) and what the check of the whole change set says about committing it.
import type { ChangeSetCheck } from './change-set-check.ts';
import type { Branch } from './ui.tsx';

export function CommitMessageField({
  field,
  message,
  onMessage,
}: {
  /** conform's metadata of the message field. */
  field: { id: string; name: string; errorId: string; errors?: string[] };
  message: string;
  onMessage(message: string): void;
}) {
  return (
    <>
      <label htmlFor={field.id}>Commit message</label>
      <textarea
        id={field.id}
        name={field.name}
        value={message}
        onChange={(event) => onMessage(event.target.value)}
        rows={2}
        placeholder="What changed and why, in a line"
        aria-invalid={field.errors ? true : undefined}
        aria-describedby={field.errors ? field.errorId : 'commit-state'}
      />
      {field.errors ? (
        <p className="field-error" id={field.errorId}>
          {field.errors.join(' ')}
        </p>
      ) : null}
    </>
  );
}

export function CommitState({ check, branch }: { check: ChangeSetCheck; branch: Branch }) {
  return (
    <p id="commit-state" className={check.state === 'invalid' ? 'field-error' : 'muted'} role="status">
      {check.state === 'checking'
        ? 'Checking the whole change set against the branch…'
        : check.state === 'invalid'
          ? `The change set has ${check.problems?.length ?? 0} problem${check.problems?.length === 1 ? '' : 's'}, listed above: fix them before committing.`
          : check.state === 'valid'
            ? 'The whole tree is valid with these changes.'
            : check.state === 'moved'
              ? `${check.trouble?.conflict?.path ?? 'A file'} changed on ${branch} since you started editing it: committing opens the merge of the two.`
              : ''}
    </p>
  );
}
