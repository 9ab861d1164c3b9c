// Hostile input cannot make Markdown slow: a megabyte of each shape that makes parsers backtrack or nest
// goes through every entry point (the site's render, the terminal, plain text, search passages) in under
// two seconds on a 2-core machine. The quadratic parser this replaced took 49 s on 160 kB of "*a ".
// Machines shared with other work run everything slower at times, so the bound stretches to three times
// what a megabyte of ordinary Markdown costs the same entry point in the same run, and a run over it gets
// a second chance: linear input stays within it whatever the load, while anything quadratic in a megabyte
// lands hundreds of times over it, twice.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { Markdown } from '../../app/markdown/Markdown.tsx';
import { renderMarkdown } from '../../cli/markdown.ts';
import { colours } from '../../cli/colour.ts';
import { splitPassages } from '../corpus/passages.ts';
import { markdownLimits, markdownToText, markdownTree } from './markdown.ts';

const MB = 1 << 20;
const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
const growing = (make: (i: number) => string) => {
  let text = '';
  for (let i = 1; text.length < MB; i++) text += make(i);
  return text.slice(0, MB);
};

const inputs: Record<string, string> = {
  'emphasis openers "*a "': fill('*a '),
  'underscore runs': fill('_'),
  'underscore openers "_a "': fill('_a '),
  'bracket openers "["': fill('['),
  'unclosed links "[a]("': fill('[a]('),
  'nested links': '['.repeat(MB / 5) + 'a' + '](u)'.repeat(MB / 5),
  'angle brackets "<"': fill('<'),
  'unclosed tags on every line': fill('<a\n'),
  'deep block quotes on one line': fill('>'),
  'deep block quotes with spaces': fill('> '),
  'nested ordered lists on one line': fill('1. '),
  'one long backtick run': fill('`'),
  'backtick runs of growing length': growing((i) => '`'.repeat(i % 200) + 'a'),
  'nested emphasis': '*'.repeat(MB / 2) + 'a' + '*'.repeat(MB / 2),
  'alternating emphasis': fill('*_') + fill('_*'),
  'a long table': '| a | b |\n|---|---|\n' + fill('| x | *y* |\n'),
  'one paragraph of a million characters': fill('Some **bold**, a [link](/x) and `code`. '),
};
// The same shapes cut into paragraphs just inside markdownLimits, so that they do reach the parser.
const LIMIT = markdownLimits.chunkMarkers;
const paragraphs = (paragraph: string) => fill(`${paragraph}\n\n`);
Object.assign(inputs, {
  'parsed: emphasis openers': paragraphs('*a '.repeat(LIMIT - 1)),
  'parsed: underscore openers': paragraphs('_a '.repeat(LIMIT - 1)),
  'parsed: bracket openers': paragraphs('['.repeat(LIMIT - 1)),
  'parsed: unclosed links': paragraphs('[a]('.repeat(LIMIT / 2 - 1)),
  'parsed: angle brackets': paragraphs('<a '.repeat(LIMIT - 1)),
  'parsed: backtick runs': paragraphs(Array.from({ length: 40 }, (_, i) => '`'.repeat(i + 1) + 'a').join(' ')),
  'parsed: nested emphasis': paragraphs('*'.repeat(LIMIT / 2 - 1) + 'a' + '*'.repeat(LIMIT / 2 - 1)),
  'parsed: alternating emphasis': paragraphs('*_'.repeat(LIMIT / 4 - 1) + 'a' + '_*'.repeat(LIMIT / 4 - 1)),
  'parsed: nested block quotes and lists': paragraphs(`${'> - '.repeat(markdownLimits.lineContainers / 2)}a`),
  'parsed: many block quotes': paragraphs('> a'),
  'parsed: long tight lists': paragraphs('- a\n'.repeat(markdownLimits.chunkContainers - 1).trim()),
  'parsed: long loose lists': fill('- a\n\n'),
});

const view = { width: 80, colours: colours(true) };
const entryPoints: Record<string, (source: string) => unknown> = {
  'the site (parse in the loader, render with React)': (source) => renderToString(createElement(Markdown, { tree: markdownTree(source) })),
  'the terminal': (source) => renderMarkdown(source, view),
  'plain text': (source) => markdownToText(source),
  'search passages': (source) => splitPassages(source),
};

const BOUND_MS = 2000;
/** Ordinary Markdown: short paragraphs with a little formatting, a megabyte of them (past the parsed part, plain). */
const ordinary = fill('Some **bold**, a [link](/x) and `code`, the way a profile is written.\n\n');

/**
 * The CPU time a run takes (this process's, user and system), not the wall clock: the bounds are about how work
 * grows with the input, and a machine busy with other work stretches the wall clock, not the CPU time.
 */
function timed(run: () => unknown): { ms: number; result: unknown } {
  const started = process.cpuUsage();
  const result = run();
  const used = process.cpuUsage(started);
  return { ms: (used.user + used.system) / 1000, result };
}

describe('a megabyte of hostile Markdown', () => {
  for (const [entry, run] of Object.entries(entryPoints)) {
    describe(entry, () => {
      let usual = 0;
      before(() => {
        run(ordinary.slice(0, 20_000)); // compiled and warm, as in a running server
        usual = timed(() => run(ordinary)).ms;
      });
      it('ordinary Markdown itself grows linearly: a megabyte costs under 2 s, or under 8× an eighth of it', () => {
        const eighth = ordinary.slice(0, MB / 8);
        let small = timed(() => run(eighth)).ms;
        let whole = usual;
        if (whole >= BOUND_MS && whole >= 8 * small) [small, whole] = [timed(() => run(eighth)).ms, timed(() => run(ordinary)).ms];
        assert.ok(whole < BOUND_MS || whole < 8 * small, `${Math.round(whole)} ms for a megabyte, ${Math.round(small)} ms for an eighth`);
      });
      for (const [name, source] of Object.entries(inputs)) {
        it(`${name}: under ${BOUND_MS / 1000} s, or 3× a megabyte of ordinary Markdown on a busy machine`, () => {
          const bound = Math.max(BOUND_MS, 3 * usual);
          let { ms, result } = timed(() => run(source));
          if (ms >= bound) ({ ms, result } = timed(() => run(source)));
          assert.ok(result, 'produced output');
          assert.ok(ms < bound, `${Math.round(ms)} ms (a megabyte of ordinary Markdown took ${Math.round(usual)} ms)`);
        });
      }
    });
  }
});
