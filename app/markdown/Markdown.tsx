// Renders a parsed Markdown tree (operations/content/markdown.ts) as React elements. Pages get the tree
// from their loader, so the parser never ships with them; the chat parses in the browser (MarkdownText).
// Text always goes through React's escaping, and the tree holds only safe links, so nothing here can
// inject HTML.
import { Fragment, type ReactNode } from 'react';
import type { List, ListItem, Nodes, PhrasingContent, Root, RootContent, Table } from 'mdast';

export type { Root as MarkdownTree } from 'mdast';

export interface MarkdownOptions {
  /** Added to heading levels, so a "# title" inside a page section becomes an h2 or h3. */
  headingOffset?: number;
  /** rel for links that leave the site (answers from the chat are user-facing but model-written). */
  externalRel?: string;
}

export function Markdown({ tree, className, ...options }: { tree: Root; className?: string } & MarkdownOptions) {
  return <div className={className ? `prose ${className}` : 'prose'}>{renderBlocks(tree.children, options)}</div>;
}

function renderBlocks(nodes: readonly RootContent[], options: MarkdownOptions, tight = false): ReactNode {
  return nodes.map((node, i) => <Fragment key={i}>{renderBlock(node, options, tight)}</Fragment>);
}

function renderBlock(node: RootContent, options: MarkdownOptions, tight: boolean): ReactNode {
  switch (node.type) {
    case 'heading': {
      const level = Math.min(6, node.depth + (options.headingOffset ?? 0));
      const Tag = `h${level}` as 'h2';
      // A section with an id (sections.ts) can be linked to: its heading is the link to itself, as on MDN, unless it
      // holds a link of its own (links do not nest).
      const id = node.data?.id;
      const inline = renderInline(node.children, options);
      if (!id) return <Tag>{inline}</Tag>;
      return (
        <Tag id={id}>
          {node.children.some((child) => child.type === 'link') ? (
            inline
          ) : (
            <a href={`#${encodeURIComponent(id)}`} className="section-link">
              {inline}
            </a>
          )}
        </Tag>
      );
    }
    case 'paragraph':
      return tight ? renderInline(node.children, options) : <p>{renderInline(node.children, options)}</p>;
    case 'blockquote':
      return <blockquote>{renderBlocks(node.children, options)}</blockquote>;
    case 'list': {
      const loose = isLoose(node);
      const items = node.children.map((item, i) => <li key={i}>{renderBlocks(item.children, options, !loose)}</li>);
      const start = node.start ?? 1;
      return node.ordered ? <ol start={start === 1 ? undefined : start}>{items}</ol> : <ul>{items}</ul>;
    }
    case 'code':
      return (
        <pre>
          <code>{node.value}</code>
        </pre>
      );
    case 'thematicBreak':
      return <hr />;
    case 'table':
      return renderTable(node, options);
    default:
      return null;
  }
}

/** A list is loose (its paragraphs keep <p>) when it or any item is spread out by blank lines, as in mdast-util-to-hast. */
function isLoose(list: List): boolean {
  return Boolean(list.spread) || list.children.some((item: ListItem) => (item.spread ?? item.children.length > 1) === true);
}

function renderTable(table: Table, options: MarkdownOptions): ReactNode {
  const [head, ...rows] = table.children;
  if (!head) return null;
  const align = (c: number) => {
    const value = table.align?.[c];
    return value ? { textAlign: value } : undefined;
  };
  const label = head.children.map((cell) => textOf(cell)).join(', ');
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table>
        <thead>
          <tr>
            {head.children.map((cell, c) => (
              <th key={c} scope="col" style={align(c)}>
                {renderInline(cell.children, options)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={r}>
              {head.children.map((_, c) => {
                const cell = row.children[c];
                return (
                  <td key={c} style={align(c)}>
                    {cell ? renderInline(cell.children, options) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function renderInline(nodes: readonly PhrasingContent[], options: MarkdownOptions): ReactNode {
  return nodes.map((node, i) => {
    switch (node.type) {
      case 'text':
        return <Fragment key={i}>{node.value}</Fragment>;
      case 'strong':
        return <strong key={i}>{renderInline(node.children, options)}</strong>;
      case 'emphasis':
        return <em key={i}>{renderInline(node.children, options)}</em>;
      case 'delete':
        return <del key={i}>{renderInline(node.children, options)}</del>;
      case 'inlineCode':
        return <code key={i}>{node.value}</code>;
      case 'break':
        return <br key={i} />;
      case 'link': {
        const external = /^https?:/i.test(node.url);
        return (
          <a key={i} href={node.url} rel={external ? options.externalRel : undefined}>
            {renderInline(node.children, options)}
          </a>
        );
      }
      default:
        return null;
    }
  });
}

function textOf(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if (node.type === 'break') return ' ';
  return 'children' in node ? node.children.map((child) => textOf(child)).join('') : '';
}
