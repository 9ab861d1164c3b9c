// "Translate now": the configured model drafts the stale or missing translations of one file (or, from a
// translation, that one) into the change set, to be read and reviewed like any edit; nothing is committed here.
import { useState } from 'react';
import { callOperation, troubleOf, type Trouble } from './api.ts';
import { saveChange } from './change-set.ts';
import type { FileOut, TranslationOut } from './types.ts';
import { ConsoleLink, TroubleNotice, type Branch } from './ui.tsx';

interface Outcome {
  drafted: string[];
  failures: Array<{ locale: string; message: string }>;
}

export function TranslateNow({
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
}) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [trouble, setTrouble] = useState<Trouble | null>(null);
  const todo = Object.entries(translations ?? {}).filter(([, state]) => state !== 'current');
  if (!translation && !todo.length) return null;

  async function run() {
    setBusy(true);
    setTrouble(null);
    setOutcome(null);
    try {
      const answer = translation
        ? await callOperation('admin_translate', { path: translation.sourcePath, branch, locales: [translation.locale] })
        : await callOperation('admin_translate', { path, branch, content: text });
      if (translation) {
        const mine = answer.drafts.find((d) => d.path === path);
        if (mine) onDraft(mine.content);
      } else {
        // Each draft joins the change set on the file as the branch has it now, so a commit checks it did not move.
        await Promise.all(
          answer.drafts.map(async (draft) => {
            const current = await callOperation('admin_read_file', { path: draft.path, branch }).catch((error: unknown) => {
              if (troubleOf(error).status === 404) return null;
              throw error;
            });
            saveChange(branch, { path: draft.path, base: { sha: current?.sha ?? null, content: current?.content ?? null }, content: draft.content });
          }),
        );
      }
      setOutcome({ drafted: answer.drafts.map((d) => d.locale), failures: answer.failures });
    } catch (error) {
      setTrouble(troubleOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className="button ghost small" onClick={() => void run()} disabled={disabled || busy} aria-describedby="translate-now-help">
        {busy ? 'Translating…' : translation ? 'Translate now' : `Translate now (${todo.length})`}
      </button>
      <span id="translate-now-help" className="visually-hidden">
        {translation
          ? 'The model drafts this translation from the English; you review it before committing.'
          : `The model drafts the ${todo.map(([l]) => l).join(', ')} translations into your change set; you review them before committing.`}
      </span>
      {trouble || outcome ? (
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
      ) : null}
    </>
  );
}
