// Markdown parsed in the browser, for text that only exists there (the chat's streamed answers). It brings
// the parser (~24 kB gzip) with it, so only the lazily loaded chat imports it; pages render trees their
// loaders parsed (Markdown.tsx).
import { useMemo } from 'react';
import { parseMarkdown } from '../../operations/content/markdown.ts';
import { Markdown, type MarkdownOptions } from './Markdown.tsx';

export function MarkdownText({ source, className, ...options }: { source: string; className?: string } & MarkdownOptions) {
  const tree = useMemo(() => parseMarkdown(source), [source]);
  return <Markdown tree={tree} className={className} {...options} />;
}
