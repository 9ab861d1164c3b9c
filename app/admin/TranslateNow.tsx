// "Translate now": the configured model drafts the stale or missing translations of one file (or, from a
// translation, that one) into the change set, to be read and reviewed like any edit; nothing is committed here.
import { useState, type ReactNode } from 'react';
import { callOperation, troubleOf, type Trouble } from './api.ts';
import { readChanges, saveChange } from './change-set.ts';
import type { FileOut, TranslationOut } from './types.ts';
import { ConsoleLink, TroubleNotice, type Branch } from './ui.tsx';

interface Outcome {
  drafted: string[];
  /** Locales whose translation had edits of its own in the change set, left as they were. */
  kept: string[];
  failures: Array<{ locale: string; message: string }>;
}

/**
 * The "Translate now" button, to go in the editor's toolbar, and what it answers (a draft made, an error), to go
 * under the toolbar at its full width; both null when there is nothing to translate.
 */
export function useTranslateNow({
  path,
  branch,
  text,
  translation,
  translations,
  disabled,
  onDraft,
}: {
  path: string;
  branch: Branch;
  text: string;
  translation?: TranslationOut;
  translations?: FileOut['translations'];
  disabled: boolean;
  /** For a translation open in the editor: its draft replaces the buffer (one undoable change). */
  onDraft(content: string): void;
}): { control: ReactNode; message: ReactNode } {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [trouble, setTrouble] = useState<Trouble | null>(null);
  const todo = Object.entries(translations ?? {}).filter(([, state]) => state !== 'current');
  // Nothing to translate from: no English (or one that does not parse), or every translation current.
  if (translation ? !translation.currentSource : !todo.length) return { control: null, message: null };

  async function run() {
    setBusy(true);
    setTrouble(null);
    setOutcome(null);
    try {
      if (translation) {
        // From the English as this browser has it: with its unsaved edits, if it has some (they are what will be committed).
        const english = readChanges(branch)[translation.sourcePath]?.content ?? undefined;
        const answer = await callOperation('admin_translate', {
          path: translation.sourcePath,
          branch,
          locales: [translation.locale],
          ...(english !== undefined ? { content: english } : {}),
        });
        const mine = answer.drafts.find((d) => d.path === path);
        if (mine) onDraft(mine.content);
        setOutcome({ drafted: answer.drafts.map((d) => d.locale), kept: [], failures: answer.failures });
        return;
      }
      const answer = await callOperation('admin_translate', { path, branch, content: text });
      // A translation with edits of its own in the change set keeps them: a draft never replaces what someone typed.
      const pending = readChanges(branch);
      const drafts = answer.drafts.filter((d) => !pending[d.path]);
      // Each draft joins the change set on the file as the branch has it (its sha, checked again at the commit, and its
      // text, for Review's diff); all of them, once every one is read.
      const bases = await Promise.all(
        drafts.map((draft) =>
          draft.sha === null
            ? Promise.resolve(null)
            : callOperation('admin_read_file', { path: draft.path, branch }).catch((error: unknown) => {
                if (troubleOf(error).status === 404) return null;
                throw error;
              }),
        ),
      );
      drafts.forEach((draft, i) =>
        saveChange(branch, { path: draft.path, base: { sha: bases[i]?.sha ?? null, content: bases[i]?.content ?? null }, content: draft.content }),
      );
      setOutcome({
        drafted: drafts.map((d) => d.locale),
        kept: answer.drafts.filter((d) => pending[d.path]).map((d) => d.locale),
        failures: answer.failures,
      });
    } catch (error) {
      setTrouble(troubleOf(error));
    } finally {
      setBusy(false);
    }
  }

  const control = (
    <>
      <button type="button" className="button ghost small" onClick={() => void run()} disabled={disabled || busy} aria-describedby="translate-now-help">
        {busy ? 'Translating…' : translation ? 'Translate now' : `Translate now (${todo.length})`}
      </button>
      <span id="translate-now-help" className="visually-hidden">
        {translation
          ? 'The model drafts this translation from the English; you review it before committing.'
          : `The model drafts the ${todo.map(([l]) => l).join(', ')} translations into your change set; you review them before committing.`}
      </span>
    </>
  );
  const message =
    trouble || outcome ? (
      <div className="toolbar-message" role="status">
        {trouble ? <TroubleNotice trouble={trouble} onDismiss={() => setTrouble(null)} /> : null}
        {outcome ? (
          <div className={`notice${outcome.failures.length ? ' notice-warning' : ''}`}>
            <p>
              {outcome.drafted.length
                ? translation
                  ? 'The model’s draft is in the editor: read it, fix what needs it, then review and commit.'
                  : `Drafted ${outcome.drafted.join(', ')} into your change set: read them before you commit.`
                : 'No translation could be drafted.'}
            </p>
            {outcome.kept.length ? (
              <p>
                Your own edits to the {outcome.kept.join(', ')} translation{outcome.kept.length === 1 ? ' are' : 's are'} in the change set: not replaced.
              </p>
            ) : null}
            {outcome.failures.length ? (
              <ul className="problem-list">
                {outcome.failures.map((f) => (
                  <li key={f.locale}>
                    {f.locale}: {f.message}
                  </li>
                ))}
              </ul>
            ) : null}
            {!translation && outcome.drafted.length ? (
              <ConsoleLink className="button small" to="/admin/review">
                Review the drafts
              </ConsoleLink>
            ) : null}
            <button type="button" className="button ghost small" onClick={() => setOutcome(null)}>
              Dismiss
            </button>
          </div>
        ) : null}
      </div>
    ) : null;
  return { control, message };
}
