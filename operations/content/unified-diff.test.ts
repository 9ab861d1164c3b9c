// Diffs of two versions of a file: jsdiff's own where the versions are near, one pass where they are far apart.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch, createTwoFilesPatch, parsePatch } from 'diff';
import { MAX_EDITS, unifiedDiff } from './unified-diff.ts';

const lines = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join('\n');

describe('unifiedDiff', () => {
  it("is jsdiff's patch for an edit of a few lines", () => {
    const before = `---\ntitle: A\n---\n${lines(200, 'line ')}\n`;
    const after = before.replace('line 50\n', 'line fifty\n').replace('title: A', 'title: B');
    assert.equal(unifiedDiff('content/x.md', before, after, 'abc1234', 'def5678'), createTwoFilesPatch('content/x.md', 'content/x.md', before, after, 'abc1234', 'def5678'));
  });

  it('gives up past MAX_EDITS line edits and replaces every line, in a patch that still applies', () => {
    // Every other line in common: a full diff keeps those as context; one that gave up replaces them too.
    const woven = (prefix: string) => Array.from({ length: MAX_EDITS + 10 }, (_, i) => `same ${i}\n${prefix} ${i}`).join('\n');
    const cases = [
      [woven('old'), woven('new')],
      [`${lines(20_000, 'a')}\n`, lines(20_000, 'b')],
      ['', lines(MAX_EDITS * 2, 'b')],
      [`${lines(MAX_EDITS * 2, 'a')}\r\n`, ''],
    ] as const;
    for (const [before, after] of cases) {
      const patch = unifiedDiff('content/x.md', before, after);
      const hunks = parsePatch(patch)[0]!.hunks;
      assert.equal(hunks.length, 1);
      assert.ok(!hunks[0]!.lines.some((line) => line.startsWith(' ')), 'no line kept as context');
      assert.equal(applyPatch(before, patch), after);
    }
  });
});
