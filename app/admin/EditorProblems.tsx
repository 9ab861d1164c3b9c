// The editor's list of problems: those of this file, each a link to its line in the source, and those the text
// causes in other files of the tree.
import type { LineProblem } from './schema-help.ts';
import type { ProblemOut } from './types.ts';
import { ProblemElsewhere } from './ui.tsx';

export function EditorProblems({
  deleted,
  problems,
  placed,
  onLine,
}: {
  deleted: boolean;
  /** The last check's problems; null until the first answer. */
  problems: ProblemOut[] | null;
  placed: { here: LineProblem[]; elsewhere: ProblemOut[] };
  /** Shows a line of the source. */
  onLine(line: number): void;
}) {
  return (
    <section className="problems" aria-labelledby="problems-title">
      <h2 id="problems-title">Problems</h2>
      {deleted ? (
        <p className="muted">Marked for deletion: the whole change set is checked on Review.</p>
      ) : problems === null ? (
        <p className="muted">Checking the file against the whole tree…</p>
      ) : !problems.length ? (
        <p className="ok">The whole tree is valid with this text.</p>
      ) : (
        <ul>
          {placed.here.map((p, i) => (
            <li key={`h${i}`}>
              <button type="button" className="link-button" onClick={() => onLine(p.line)}>
                Line {p.line}
              </button>{' '}
              {p.message}
            </li>
          ))}
          {placed.elsewhere.map((p, i) => (
            <li key={`e${i}`}>
              <ProblemElsewhere problem={p} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
