// Full-text search over passages of every entry and document in every locale (BM25F, bm25.ts).
// Built once per build and never changed afterwards.
import type { RootContent } from 'mdast';
import { parseMarkdown } from '../content/markdown.ts';
import { createBm25 } from './bm25.ts';
import { memoize } from './memo.ts';
import { noPause, type Pause } from './pause.ts';
import { tokenize, tokenizeCached } from './tokenize.ts';

export interface Passage {
  /** Language of the passage's text; used to prefer passages in the language of the query. */
  locale: string;
  slug: string;
  kind: 'entry' | 'document';
  title: string;
  text: string;
  url: string;
}

export interface SearchHit extends Omit<Passage, 'text' | 'locale'> {
  passage: string;
  score: number;
}

export interface SearchIndex {
  readonly size: number;
  search(query: string, limit: number): SearchHit[];
}

/** Builds the index; `pause` is awaited between steps so a caller on the main thread can yield. */
export async function createSearchIndex(passages: readonly Passage[], pause: Pause = noPause): Promise<SearchIndex> {
  // Passages are tokenised through the cache, so a rebuild after a small change tokenises only the text
  // that changed; queries are tokenised afresh.
  const engine = await createBm25<'title' | 'text'>(passages, tokenizeCached, { fieldWeights: { title: 2, text: 1 }, k1: 1.2, b: 0.75, k: 1 }, pause);
  // Which words each language uses, to tell which languages a query is written in.
  const vocabulary = new Map<string, Set<string>>();
  for (const p of passages) {
    const words = vocabulary.get(p.locale) ?? new Set<string>();
    for (const token of tokenizeCached(p.title)) words.add(token);
    for (const token of tokenizeCached(p.text)) words.add(token);
    vocabulary.set(p.locale, words);
    await pause();
  }
  return {
    size: passages.length,
    search(query, limit) {
      const tokens = tokenize(query);
      const preferred = queryLocales(tokens, vocabulary);
      // Ask for more than `limit`: several passages of one record collapse into its best one.
      const raw = engine.search(tokens, Math.min(passages.length, limit * 8 + 20));
      const ranked = raw
        .map(([id, score]) => {
          const p = passages[Number(id)]!;
          return { p, score: preferred.has(p.locale) ? score : score * OTHER_LANGUAGE_WEIGHT };
        })
        .sort((a, b) => b.score - a.score);
      const seen = new Set<string>();
      const hits: SearchHit[] = [];
      for (const { p, score } of ranked) {
        const key = `${p.kind}:${p.slug}`;
        if (seen.has(key)) continue;
        seen.add(key);
        hits.push({ slug: p.slug, kind: p.kind, title: p.title, passage: p.text, score: Math.round(score * 1000) / 1000, url: p.url });
        if (hits.length >= limit) break;
      }
      return hits;
    },
  };
}

/** Passages in a language the query is not written in still match, but rank below those that are. */
const OTHER_LANGUAGE_WEIGHT = 0.6;

/** The languages whose vocabulary covers most of the query's words; English wins ties (it is the source text). */
function queryLocales(tokens: string[], vocabulary: Map<string, Set<string>>): Set<string> {
  let best = 0;
  let winners: string[] = [];
  for (const [locale, words] of vocabulary) {
    const covered = tokens.filter((t) => words.has(t)).length;
    if (covered > best) [best, winners] = [covered, [locale]];
    else if (covered === best) winners.push(locale);
  }
  if (winners.includes('en')) return new Set(['en']);
  return new Set(winners);
}

/**
 * Splits Markdown into passages of readable size, keeping paragraphs whole where possible: blocks the
 * text separates with a blank line (a list's items when they are spread out) gather into a passage until
 * it would pass `maxChars`, and a one-line heading always starts a new one. Passages keep their Markdown.
 */
export function splitPassages(markdown: string, maxChars = 600): string[] {
  return maxChars === 600 ? splitCached(markdown) : split(markdown, maxChars);
}

/** Split by text: a rebuild parses only the Markdown that changed. Shared arrays: do not change them. */
const splitCached = memoize((markdown: string) => split(markdown, 600), 50_000);

function split(markdown: string, maxChars: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const block of markdownBlocks(markdown)) {
    const isHeading = /^#{1,6}\s/.test(block) && !block.includes('\n');
    if (current && (isHeading || current.length + block.length + 2 > maxChars)) {
      out.push(current);
      current = '';
    }
    current = current ? `${current}\n\n${block}` : block;
  }
  if (current) out.push(current);
  return out;
}

/** The source of each block the parser finds, blocks not separated by a blank line taken together. */
function markdownBlocks(markdown: string): string[] {
  const leaves: Array<{ start: number; end: number }> = [];
  // Lists are looked into, so that items (and paragraphs within them) set apart by blank lines are blocks
  // of their own; each container's first block starts where the container does (at its marker).
  const visit = (nodes: readonly RootContent[], start?: number) => {
    nodes.forEach((node, i) => {
      const from = i === 0 && start !== undefined ? start : node.position?.start.offset;
      if (node.type === 'list' || node.type === 'listItem') visit(node.children, from);
      else if (from !== undefined && node.position?.end.offset !== undefined) leaves.push({ start: from, end: node.position.end.offset });
    });
  };
  visit(parseMarkdown(markdown).children);
  const blocks: string[] = [];
  let group: { start: number; end: number } | undefined;
  for (const leaf of leaves) {
    if (group && !/\n[ \t\r]*\n/.test(markdown.slice(group.end, leaf.start))) group.end = leaf.end;
    else {
      if (group) blocks.push(markdown.slice(group.start, group.end).trim());
      group = { ...leaf };
    }
  }
  if (group) blocks.push(markdown.slice(group.start, group.end).trim());
  return blocks.filter(Boolean);
}
