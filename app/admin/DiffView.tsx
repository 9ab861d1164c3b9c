// A read-only diff of two texts in CodeMirror's merge view: side by side or unified.
import { useEffect, useRef } from 'react';
import { createDiffView } from './codemirror.client.ts';

export function DiffView({ before, after, path, layout, label }: { before: string; after: string; path: string; layout: 'split' | 'unified'; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    const view = createDiffView({ parent: host.current, before, after, path, layout, label });
    return () => view.destroy();
  }, [before, after, path, layout, label]);
  return <div className={`diff-host diff-${layout}`} ref={host} role="region" aria-label={label} />;
}
