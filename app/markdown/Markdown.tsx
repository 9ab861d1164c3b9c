// Renders the parsed Markdown tree as React elements. Text always goes through React's escaping, and
// links are the ones parseInline already checked with safeHref, so nothing here can inject HTML.
import { Fragment, useMemo, type ReactNode } from 'react';
import { parseMarkdown, type Block, type Inline } from './parse.ts';

export interface MarkdownOptions {
  /** Added to heading levels, so a "# title" inside a page section becomes an h2 or h3. */
  headingOffset?: number;
  /** rel for links that leave the site (answers from the chat are user-facing but model-written). */
  externalRel?: string;
}

export function Markdown({ source, className, ...options }: { source: string; className?: string } & MarkdownOptions) {
  const blocks = useMemo(() => parseMarkdown(source), [source]);
  return <div className={className ? `prose ${className}` : 'prose'}>{renderBlocks(blocks, options)}</div>;
}

export function renderBlocks(blocks: Block[], options: MarkdownOptions = {}, tight = false): ReactNode {
  return blocks.map((block, i) => <Fragment key={i}>{renderBlock(block, options, tight)}</Fragment>);
}

function renderBlock(block: Block, options: MarkdownOptions, tight: boolean): ReactNode {
  switch (block.type) {
    case 'heading': {
      const level = Math.min(6, block.level + (options.headingOffset ?? 0));
      const Tag = `h${level}` as 'h2';
      return <Tag>{renderInline(block.children, options)}</Tag>;
    }
    case 'paragraph':
      return tight ? renderInline(block.children, options) : <p>{renderInline(block.children, options)}</p>;
    case 'blockquote':
      return <blockquote>{renderBlocks(block.children, options)}</blockquote>;
    case 'list': {
      const items = block.items.map((item, i) => <li key={i}>{renderBlocks(item, options, block.tight)}</li>);
      return block.ordered ? <ol start={block.start === 1 ? undefined : block.start}>{items}</ol> : <ul>{items}</ul>;
    }
    case 'code':
      return (
        <pre>
          <code>{block.value}</code>
        </pre>
      );
    case 'hr':
      return <hr />;
    case 'table': {
      const label = block.head.map((cell) => plain(cell)).join(', ');
      return (
        <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
          <table>
            <thead>
              <tr>
                {block.head.map((cell, c) => (
                  <th key={c} scope="col" style={block.align[c] ? { textAlign: block.align[c]! } : undefined}>
                    {renderInline(cell, options)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c} style={block.align[c] ? { textAlign: block.align[c]! } : undefined}>
                      {renderInline(cell, options)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
  }
}

export function renderInline(nodes: Inline[], options: MarkdownOptions = {}): ReactNode {
  return nodes.map((node, i) => {
    switch (node.type) {
      case 'text':
        return <Fragment key={i}>{node.value}</Fragment>;
      case 'strong':
        return <strong key={i}>{renderInline(node.children, options)}</strong>;
      case 'em':
        return <em key={i}>{renderInline(node.children, options)}</em>;
      case 'del':
        return <del key={i}>{renderInline(node.children, options)}</del>;
      case 'code':
        return <code key={i}>{node.value}</code>;
      case 'break':
        return <br key={i} />;
      case 'link': {
        const external = /^https?:/i.test(node.href);
        return (
          <a key={i} href={node.href} rel={external ? options.externalRel : undefined}>
            {renderInline(node.children, options)}
          </a>
        );
      }
    }
  });
}

function plain(nodes: Inline[]): string {
  return nodes.map((n) => (n.type === 'text' || n.type === 'code' ? n.value : n.type === 'break' ? ' ' : plain(n.children))).join('');
}
