// A read-only diff of two texts in CodeMirror's merge view: side by side or unified. CodeMirror is loaded when
// the first diff is shown, not with the page (the form view of the editor does without it).
import { useEffect, useRef } from 'react';

export function DiffView({ before, after, path, layout, label }: { before: string; after: string; path: string; layout: 'split' | 'unified'; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let view: { destroy(): void } | undefined;
    let cancelled = false;
    void import('./codemirror.client.ts').then(({ createDiffView }) => {
      if (!cancelled && host.current) view = createDiffView({ parent: host.current, before, after, path, layout, label });
    });
    return () => {
      cancelled = true;
      view?.destroy();
    };
  }, [before, after, path, layout, label]);
  return <div className={`diff-host diff-${layout}`} ref={host} role="region" aria-label={label} />;
}
