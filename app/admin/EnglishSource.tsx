// Beside a translation: the English it translates, as it is now, and what changed in it since the translation was
// made (from the English as it was at the translation's recorded hash, found in the file's history), so a
// translator sees exactly what to bring over.
import { DiffView } from './DiffView.tsx';
import type { TranslationOut } from './types.ts';
import { ConsoleLink } from './ui.tsx';

export function EnglishSource({ translation }: { translation: TranslationOut }) {
  const { source, state, sourcePath } = translation;
  return (
    <aside className="side-panel english-source" aria-labelledby="english-title">
      <div className="panel-head">
        <h2 id="english-title">The English</h2>
        <ConsoleLink to="/admin/edit" query={{ path: sourcePath }}>
          Open it
        </ConsoleLink>
      </div>
      {source.now === null ? (
        <p className="field-error">The English file {sourcePath} does not exist on this branch.</p>
      ) : state === 'stale' ? (
        source.then !== null ? (
          <>
            <p>What changed in the English since this translation was made{source.thenCommit ? ` (at ${source.thenCommit.slice(0, 7)})` : ''}:</p>
            <DiffView
              before={source.then}
              after={source.now}
              path={sourcePath}
              layout="unified"
              label={`What changed in ${sourcePath} since the translation`}
            />
          </>
        ) : (
          <p className="muted">The English this translation was made from is not in the file’s recent history; compare with the English as it is now, below.</p>
        )
      ) : state === 'missing' ? (
        <p className="muted">This translation does not exist yet: it starts from the English below, to translate field by field, or use Translate now.</p>
      ) : (
        <p className="ok">This translation is current: it was made from the English as it is now.</p>
      )}
      {source.now !== null ? (
        <details open={state !== 'stale' || source.then === null}>
          <summary>The English as it is now</summary>
          <pre className="english-text" lang="en">
            {source.now}
          </pre>
        </details>
      ) : null}
    </aside>
  );
}
