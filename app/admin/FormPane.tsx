// The editor's form view, loaded with what only it needs (the YAML document model); the source view loads
// CodeMirror instead. Shown after hydration only: a lazy part still loading while the page hydrates would be
// rendered again in the browser (React #421) at the first update, and a form is of no use before the page can
// take input.
import { lazy, Suspense, useMemo, type ComponentProps } from 'react';
import type { ProblemOut, TranslationOut } from './types.ts';

const FormView = lazy(() => import('./FormView.tsx'));

export function FormPane({
  hydrated,
  problems,
  translation,
  ...props
}: Omit<ComponentProps<typeof FormView>, 'problems' | 'english'> & {
  hydrated: boolean;
  /** The last check's problems (the form shows those of this file). */
  problems: ProblemOut[] | null;
  /** For a translation: its English is shown beside each field. */
  translation: TranslationOut | undefined;
}) {
  const { path } = props;
  const ownProblems = useMemo(() => (problems ?? []).filter((p) => !p.path || p.path === path), [problems, path]);
  const english = useMemo(() => (translation?.source.now ? { path: translation.sourcePath, text: translation.source.now } : undefined), [translation]);
  if (!hydrated) return <p className="muted">Loading the form…</p>;
  return (
    <Suspense fallback={<p className="muted">Loading the form…</p>}>
      <FormView {...props} problems={ownProblems} english={english} />
    </Suspense>
  );
}
