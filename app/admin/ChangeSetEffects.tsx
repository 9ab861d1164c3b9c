// What a change set does beyond its own files, shown on the review screen before the commit: the problems it causes
// in files it does not change (entries naming a skill it breaks…), and the translations deleted with their English.
import type { ChangeSetCheckOut, ProblemOut } from './types.ts';
import { ProblemElsewhere } from './ui.tsx';

export function ProblemsInOtherFiles({ problems }: { problems: ProblemOut[] }) {
  if (!problems.length) return null;
  return (
    <section className="elsewhere" aria-labelledby="elsewhere-title">
      <h2 id="elsewhere-title">Problems the change causes in other files</h2>
      <ul className="problem-list">
        {problems.map((p, i) => (
          <li key={i}>
            <ProblemElsewhere problem={p} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function DeletedWithEnglish({ files }: { files: ChangeSetCheckOut['files'] }) {
  if (!files.length) return null;
  return (
    <section className="cascade" aria-labelledby="cascade-title">
      <h2 id="cascade-title">Deleted with their English</h2>
      <p className="muted">A translation goes with the file it translates, in the same commit.</p>
      <ul>
        {files.map((f) => (
          <li key={f.path}>
            <span className="status status-deleted">deleted</span> <code>{f.path}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
