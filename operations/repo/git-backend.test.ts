// Who wrote a commit, as both backends write and read it: the Co-authored-by trailer (made safe, once, first among
// the co-authors) and history's reading of it. The backends themselves are in content-repo.test.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { limits } from '../contract/limits.ts';
import { coAuthorOf, listedCommit, safeAuthor, withCoAuthor } from './git-backend.ts';

const ada = { name: 'Ada Lovelace', email: 'ada@example.test' };
const trailer = 'Co-authored-by: Ada Lovelace <ada@example.test>';

describe('withCoAuthor', () => {
  it('adds the trailer after a blank line, and nothing without an author', () => {
    assert.equal(withCoAuthor('Fix a typo', ada), `Fix a typo\n\n${trailer}`);
    assert.equal(withCoAuthor('Fix a typo\n\nWhy it was wrong.\n\n', ada), `Fix a typo\n\nWhy it was wrong.\n\n${trailer}`);
    assert.equal(withCoAuthor('Fix a typo\n', undefined), 'Fix a typo\n');
    assert.equal(withCoAuthor('Fix a typo', { name: '\n<>', email: 'a@b' }), 'Fix a typo', 'nothing left of the name: no trailer');
  });

  it('joins a trailer block the message has, first, and never adds a second copy', () => {
    assert.equal(withCoAuthor('Fix\n\nSigned-off-by: B <b@x>', ada), `Fix\n\n${trailer}\nSigned-off-by: B <b@x>`);
    assert.equal(withCoAuthor(`Fix\n\n${trailer}`, ada), `Fix\n\n${trailer}`);
    assert.equal(withCoAuthor(`Fix\n\nCo-authored-by: B <b@x>\n${trailer.toLowerCase()}`, ada), `Fix\n\n${trailer}\nCo-authored-by: B <b@x>`);
    // A subject that looks like a trailer is a subject; a last paragraph of prose is not a trailer block.
    assert.equal(withCoAuthor('Note: a subject', ada), `Note: a subject\n\n${trailer}`);
    assert.equal(withCoAuthor('Fix\n\nSee: the docs\nand more prose', ada), `Fix\n\nSee: the docs\nand more prose\n\n${trailer}`);
  });

  it('lets no name or address break out of its line or its brackets', () => {
    const forged = withCoAuthor('Fix', { name: 'Eve\r\nCo-authored-by: Mallory <m@x>', email: 'e@x>\nSigned-off-by: M' });
    assert.deepEqual(forged.split('\n').slice(2), ['Co-authored-by: Eve Co-authored-by: Mallory m@x <e@xSigned-off-by:M>']);
    assert.equal(coAuthorOf(forged)?.name, 'Eve Co-authored-by: Mallory m@x');
  });
});

describe('safeAuthor', () => {
  it('cleans control characters and brackets, and keeps `Name <email>` within limits.author', () => {
    assert.deepEqual(safeAuthor({ name: ' Ada\t\u2028Lovelace\u0000 ', email: ' <ada@example.test> ' }), ada);
    const long = safeAuthor({ name: 'n'.repeat(2000), email: `${'e'.repeat(300)}@x` })!;
    assert.ok(`${long.name} <${long.email}>`.length <= limits.author);
    assert.equal(safeAuthor({ name: '...', email: 'a@b' }), undefined, 'git would refuse a name of only punctuation');
    assert.equal(safeAuthor({ name: 'Ada', email: '' }), undefined);
    assert.equal(safeAuthor(undefined), undefined);
  });
});

describe('history’s author and subject', () => {
  const commit = (message: string, author = 'Token User') => listedCommit({ sha: 'a'.repeat(40), parents: [], message, author, time: '', files: [] });

  it('names the first co-author of the trailers, else git’s author, and shows the subject alone', () => {
    assert.deepEqual(
      [commit(`Fix\n\nBody.\n\n${trailer}\nCo-authored-by: B <b@x>`)].map((c) => [c.message, c.author]),
      [['Fix', 'Ada Lovelace']],
    );
    assert.equal(commit('Fix').author, 'Token User');
    assert.equal(commit('Co-authored-by: B <b@x>').author, 'Token User', 'a subject is never a trailer');
    assert.equal(commit('Fix\n\nCo-authored-by: B <b@x>\nnot a trailer').author, 'Token User');
    assert.equal(commit('Fix\n\nco-authored-by: Bea Bee').author, 'Bea Bee');
    assert.equal(commit(`Fix\n\nCo-authored-by: ${'x'.repeat(900)} <b@x>`).author.length, limits.author);
  });
});
