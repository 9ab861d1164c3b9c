// Where the visitor pastes the job description: a large text area with its length, an optional role title,
// Compare (or Stop while the answer streams). A plain form post without scripts; with them, the page streams
// the answer instead. A refused field is said next to it, anything else above the buttons.
import { Form } from '@remix-run/react';
import { useRef, type FormEvent, type KeyboardEvent } from 'react';
import { Icon } from '../components/Icons.tsx';
import { useHref, useT } from '../components/root-data.ts';
import type { Translate } from '../i18n/messages.ts';
import type { MatchProblem } from './state.ts';

export interface MatchFormProps {
  description: string;
  role: string;
  onDescription(value: string): void;
  onRole(value: string): void;
  /** The longest description and role title the operation takes. */
  max: number;
  roleMax: number;
  problem?: MatchProblem;
  streaming: boolean;
  waitSeconds: number;
  /** The page runs its scripts: show the length as it changes. */
  interactive: boolean;
  /** Start the comparison in the browser; false when there is nothing to compare (the form says why). */
  onStart(): boolean;
  onStop(): void;
}

/** The words for a refused field. */
export function invalidMessage(t: Translate, problem: Extract<MatchProblem, { kind: 'invalid' }>, max: number): string {
  if (problem.reason === 'empty') return t('matchEmpty');
  if (problem.reason === 'too_long') return t('matchTooLong', { max });
  if (problem.reason === 'no_requirements') return t('matchNoRequirements');
  return t('matchRejected', { message: problem.message });
}

export function MatchForm(props: MatchFormProps) {
  const { description, role, max, roleMax, problem, streaming, waitSeconds, interactive } = props;
  const t = useT();
  const href = useHref();
  const form = useRef<HTMLFormElement>(null);
  const invalid = problem?.kind === 'invalid' ? problem : undefined;
  const descriptionError = invalid && (invalid.field === 'description' || !invalid.field) ? invalidMessage(t, invalid, max) : undefined;
  const roleError = invalid?.field === 'role' ? invalidMessage(t, invalid, max) : undefined;
  const describedBy = ['match-description-hint', interactive ? 'match-length' : '', descriptionError ? 'match-description-error' : '']
    .filter(Boolean)
    .join(' ');

  const submit = (event: FormEvent<HTMLFormElement>) => {
    // With scripts the answer streams into the page; without them the form posts and the page answers the table.
    event.preventDefault();
    if (!streaming && waitSeconds === 0 && !props.onStart()) document.getElementById('match-description')?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter breaks the line as in any text area; Ctrl or ⌘ with Enter compares.
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.current?.requestSubmit();
    }
  };

  return (
    // Without scripts the answer is a new page (the fragment takes the visitor to the table) and the browser checks
    // the fields; with them the form checks itself, in the page's language.
    <Form ref={form} method="post" action={`${href('/match')}#match-result`} className="match-form" onSubmit={submit} noValidate={interactive}>
      <div className="field">
        <label htmlFor="match-description">{t('matchDescriptionLabel')}</label>
        <p id="match-description-hint" className="field-hint">
          <Icon name="lock" size={15} />
          <span>{t('matchDescriptionHint')}</span>
        </p>
        <textarea
          id="match-description"
          name="description"
          value={description}
          onChange={(e) => props.onDescription(e.target.value)}
          onKeyDown={onKeyDown}
          maxLength={max}
          rows={12}
          required
          placeholder={t('matchDescriptionPlaceholder')}
          autoComplete="off"
          aria-describedby={describedBy}
          aria-invalid={descriptionError ? true : undefined}
        />
        <div className="field-foot">
          {descriptionError ? (
            <p id="match-description-error" className="field-error" role="alert">
              <Icon name="warning" size={15} />
              <span>{descriptionError}</span>
            </p>
          ) : (
            <span />
          )}
          {interactive ? (
            <p id="match-length" className={`match-length${description.length > max * 0.9 ? ' near' : ''}`}>
              {t('matchLength', { n: description.length, max })}
            </p>
          ) : null}
        </div>
      </div>
      <div className="field match-role">
        <label htmlFor="match-role">{t('matchRoleLabel')}</label>
        <input
          id="match-role"
          name="role"
          type="text"
          value={role}
          onChange={(e) => props.onRole(e.target.value)}
          maxLength={roleMax}
          autoComplete="off"
          placeholder={t('matchRolePlaceholder')}
          aria-describedby={roleError ? 'match-role-error' : undefined}
          aria-invalid={roleError ? true : undefined}
        />
        {roleError ? (
          <p id="match-role-error" className="field-error" role="alert">
            <Icon name="warning" size={15} />
            <span>{roleError}</span>
          </p>
        ) : null}
      </div>
      {problem && problem.kind !== 'invalid' ? (
        <p className="match-problem" role="alert" data-testid={`match-problem-${problem.kind}`}>
          <Icon name="warning" size={16} />
          <span>{problem.kind === 'rate_limited' ? waitWords(t, waitSeconds) : problem.kind === 'network' ? t('matchNetwork') : t('matchUnavailable')}</span>
        </p>
      ) : null}
      <div className="match-buttons">
        {/* Two elements, not one whose type changes: a click on Stop ends the stream, and the button that takes its
            place at once must not be a submit button by the time the browser acts on that same click. */}
        {streaming ? (
          <button key="stop" type="button" className="button stop" onClick={props.onStop}>
            <Icon name="stop" />
            {t('matchStop')}
          </button>
        ) : (
          // Without scripts nothing would enable it again: the service answers a post sent too soon with the same message.
          <button key="submit" type="submit" className="button" disabled={interactive && waitSeconds > 0}>
            <Icon name="compare" />
            {t('matchSubmit')}
          </button>
        )}
      </div>
    </Form>
  );
}

const waitWords = (t: Translate, seconds: number) => (seconds > 0 ? t('matchRateLimited', { s: seconds }) : t('matchRateLimitedOver'));
