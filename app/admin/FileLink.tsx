// A file in one of the console's lists: its title (or name) and path, opening its editor.
import type { ReactNode } from 'react';
import { ConsoleLink } from './ui.tsx';

export function FileLink({ file, children }: { file: { path: string; title?: string }; children?: ReactNode }) {
  return (
    <ConsoleLink to="/admin/edit" query={{ path: file.path }} className="file-link">
      <span className="file-title">{file.title ?? file.path.split('/').pop()}</span>
      <span className="file-path">{file.path}</span>
      {children}
    </ConsoleLink>
  );
}
