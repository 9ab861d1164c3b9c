// The writable-path rules on their own: what an editor may write, and every way out of content/ refused.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../contract/errors.ts';
import { assertContentDir, assertReadablePath, assertWritablePath, writablePathProblem } from './paths.ts';

describe('writablePathProblem', () => {
  it('accepts regular .md and .json files under content/', () => {
    for (const path of ['content/site.json', 'content/brief.md', 'content/skills/python.md', 'content/i18n/zh-hant/corpus/projects/x.md', 'content/a/b/c/d.json']) {
      assert.equal(writablePathProblem(path), undefined, path);
    }
  });

  it('refuses every way out of content/ and every non-content file', () => {
    const refused = [
      '', '../package.json', 'content/../package.json', 'content/skills/../../package.json', 'content/./skills/x.md', './content/x.md',
      '%2e%2e/package.json', 'content/%2e%2e/package.json', 'content/%2E%2E/x.md', 'content%2f..%2fpackage.json', 'content/skills/x%00.md',
      '/etc/passwd', '/content/skills/x.md', 'C:/content/x.md', 'c:content/x.md',
      'content\\skills\\x.md', 'content/skills/..\\..\\x.md', '..\\package.json',
      'content/skills/x\u0000.md', 'content/skills/x.md\u0000.txt', 'content/skills/x\n.md', 'content/skills/x\t.md', 'content/skills/x\r.md', 'content/skills/x\u007f.md',
      '.git/config', 'content/.git/config', 'content/.git/HEAD.md', 'content/skills/.hidden.md', 'content/.env.json', 'content/.well-known/x.md',
      'content/skills/x.txt', 'content/skills/x.sh', 'content/skills/x.md.exe', 'content/skills/x.MD', 'content/skills/x', 'content/skills/', 'content/',
      'content', 'package.json', 'server.ts', 'README.md', 'contents/x.md', 'Content/x.md',
      'content//skills/x.md', 'content/skills//x.md', 'content/skills/x.md/',
    ];
    for (const path of refused) assert.ok(writablePathProblem(path), `should refuse ${JSON.stringify(path)}`);
  });

  it('takes images directly in content/media/ by a plain lower-case name, and nothing else there', () => {
    for (const path of ['content/media/portrait.jpg', 'content/media/a.jpeg', 'content/media/cover_2.png', 'content/media/x.webp', 'content/media/v1.2.avif']) {
      assert.equal(writablePathProblem(path), undefined, path);
    }
    const refused = ['content/media/notes.md', 'content/media/site.json', 'content/media/a.svg', 'content/media/a.gif', 'content/media/A.png', 'content/media/a.PNG'];
    for (const path of [...refused, 'content/media/sub/a.png', 'content/media/.a.png', 'content/media/a b.png', 'content/media/-a.png']) {
      assert.ok(writablePathProblem(path), `should refuse ${JSON.stringify(path)}`);
    }
    assert.equal(assertContentDir('content/media'), 'content/media');
  });

  it('throws forbidden_path (403) with a printable message, never echoing control characters', () => {
    assert.throws(() => assertWritablePath('content/x\u0000\u001b[31m.md'), (e: unknown) => {
      assert.ok(e instanceof AppError);
      assert.equal(e.code, 'forbidden_path');
      assert.equal(e.status, 403);
      assert.doesNotMatch(e.message, /[\u0000-\u001f]/);
      return true;
    });
  });
});

describe('assertReadablePath', () => {
  it('refuses what a write refuses, worded as a read, with the path under content/ it probably meant', () => {
    for (const path of ['site.json', '../etc/passwd', 'content/.env.json', 'content/skills/x.txt']) {
      assert.ok(writablePathProblem(path), path);
      assert.throws(() => assertReadablePath(path), (e: unknown) => e instanceof AppError && e.code === 'forbidden_path' && !/writable/.test(e.message), path);
    }
    assert.throws(() => assertReadablePath('site.json'), { message: '"site.json" is not a content file: only files under content/ are readable. Paths are relative to the repository: content/site.json.' });
    assert.throws(() => assertWritablePath('site.json'), { message: /^"site\.json" is not a writable content file: only files under content\/ are writable\. .*content\/site\.json\.$/ });
    assert.doesNotThrow(() => assertReadablePath('content/site.json'));
  });
});

describe('assertContentDir', () => {
  it('accepts content folders and refuses anything else', () => {
    assert.equal(assertContentDir('content/skills/'), 'content/skills');
    assert.equal(assertContentDir(''), 'content');
    for (const dir of ['..', 'content/..', '.git', '/etc', 'content/.git', 'content\\skills', 'node_modules']) {
      assert.throws(() => assertContentDir(dir), (e: unknown) => e instanceof AppError && e.code === 'forbidden_path', dir);
    }
  });
});
