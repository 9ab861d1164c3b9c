// Three-way merge: changes on one side merge by themselves, the same change on both sides is no conflict,
// different changes to the same lines are conflicts resolved by the editor's choice, and nothing is lost.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bothSides, conflictCount, lines, mergeThreeWay, resolveMerge } from './merge3.ts';

const base = 'title: A\nsummary: one\nbody line\nend\n';

describe('mergeThreeWay', () => {
  it('keeps text exactly when split into lines and joined again', () => {
    assert.equal(lines('a\nb\n\nc').join(''), 'a\nb\n\nc');
    assert.deepEqual(lines(''), []);
  });

  it('merges changes to different lines without a conflict', () => {
    const theirs = base.replace('title: A', 'title: B');
    const yours = base.replace('end', 'the end');
    const chunks = mergeThreeWay(base, theirs, yours);
    assert.equal(conflictCount(chunks), 0);
    assert.equal(resolveMerge(chunks, []), 'title: B\nsummary: one\nbody line\nthe end\n');
  });

  it('is no conflict when both made the same change', () => {
    const both = base.replace('one', 'two');
    assert.equal(conflictCount(mergeThreeWay(base, both, both)), 0);
  });

  it('reports a conflict where both changed the same line, and resolves it as chosen', () => {
    const theirs = base.replace('summary: one', 'summary: theirs');
    const yours = base.replace('summary: one', 'summary: yours').replace('end', 'the end');
    const chunks = mergeThreeWay(base, theirs, yours);
    assert.equal(conflictCount(chunks), 1);
    const conflict = chunks.find((c) => c.kind === 'conflict')!;
    assert.deepEqual(conflict, { kind: 'conflict', base: ['summary: one\n'], theirs: ['summary: theirs\n'], yours: ['summary: yours\n'] });
    assert.equal(resolveMerge(chunks, []), undefined, 'not resolved until every conflict has a choice');
    assert.equal(resolveMerge(chunks, ['yours']), 'title: A\nsummary: yours\nbody line\nthe end\n');
    assert.equal(resolveMerge(chunks, ['theirs']), 'title: A\nsummary: theirs\nbody line\nthe end\n');
    assert.equal(resolveMerge(chunks, [{ text: 'summary: both\n' }]), 'title: A\nsummary: both\nbody line\nthe end\n');
  });

  it('ends text typed by hand after the chunk’s final newline with its own newline, not glued to the next line', () => {
    const theirs = base.replace('summary: one', 'summary: theirs');
    const yours = base.replace('summary: one', 'summary: yours');
    const chunks = mergeThreeWay(base, theirs, yours);
    assert.equal(resolveMerge(chunks, [{ text: 'summary: yours\nadded by hand' }]), 'title: A\nsummary: yours\nadded by hand\nbody line\nend\n');
    assert.equal(resolveMerge(chunks, [{ text: '' }]), 'title: A\nbody line\nend\n', 'an emptied chunk adds no blank line');
  });

  it('keeps both sides without writing twice the lines they share', () => {
    const paragraph = ['First sentence.\n', 'Shared middle.\n', 'Last sentence.\n'];
    const theirs = ['First sentence, theirs.\n', 'Shared middle.\n', 'Last sentence.\n'];
    const yours = ['First sentence.\n', 'Shared middle.\n', 'Last sentence, yours.\n'];
    const merged = bothSides(yours, theirs);
    assert.equal(merged.split('Shared middle.').length - 1, 1, 'the shared line once');
    assert.ok(merged.includes('Last sentence, yours.') && merged.includes('First sentence, theirs.'));
    assert.equal(bothSides(paragraph, paragraph), paragraph.join(''));
  });

  it('merges word by word the lines both sides changed in different places, and keeps a real clash a conflict', () => {
    const paragraph = 'The copilot answered guests in six languages and cut response times by half.\n';
    const text = `title: A\n---\n${paragraph}end\n`;
    const theirs = text.replace('six languages', 'seven languages');
    const yours = text.replace('by half', 'by 52 %');
    const chunks = mergeThreeWay(text, theirs, yours);
    assert.equal(conflictCount(chunks), 0);
    assert.equal(resolveMerge(chunks, []), text.replace('six languages', 'seven languages').replace('by half', 'by 52 %'));
    const clash = mergeThreeWay(text, text.replace('six', 'seven'), text.replace('six', 'eight'));
    assert.equal(conflictCount(clash), 1);
  });
});
