// The Node.js the project says it runs on is the one it is tested on: the image's major (the Dockerfile's
// NODE_VERSION) is the one CI runs the whole suite on, the other majors package.json's engines allows get the node
// tests, and the README and CONTRIBUTING say so, with the tools the tests need and how to install them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const majors = () =>
  execFileSync(process.execPath, ['scripts/node-majors.mjs'], { cwd: new URL('../', import.meta.url), encoding: 'utf8' })
    .trim()
    .split(' ')
    .map(Number);

describe('the Node.js versions', () => {
  it('CI runs the whole suite on the major the image ships, and the node tests on every other LTS major engines allows', () => {
    const image = Number(/^ARG NODE_VERSION=(\d+)$/m.exec(read('Dockerfile'))![1]);
    const lowest = Number(/^>=\s*(\d+)/.exec((JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node)![1]);
    const tested = majors();
    assert.equal(tested[0], image, 'the first major is the image’s');
    for (let major = lowest; major < image; major += 2) assert.ok(tested.includes(major), `Node.js ${major} is tested`);
    const ci = read('.ci/run');
    assert.match(ci, /node scripts\/node-majors\.mjs/, '.ci/run takes its majors from the same place');
    assert.match(ci, /^npm test$/m, '.ci/run runs exactly the README’s test command');
    assert.match(ci, /scripts\/test\.mjs --node-only/, 'and the node tests on the other majors');
  });

  it('the README and CONTRIBUTING name the supported versions, the tools the tests need and the command that installs them', () => {
    const [image, ...others] = majors();
    const tools = read('scripts/test-tools.txt')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#'))
      .map((line) => line.trim().split(/\s+/)[0]!);
    for (const doc of ['README.md', 'CONTRIBUTING.md']) {
      const text = read(doc);
      assert.ok(text.includes(`Node.js ${image}`), `${doc} names Node.js ${image}`);
      for (const major of others) assert.ok(text.includes(String(major)), `${doc} names Node.js ${major}`);
      assert.ok(text.includes('scripts/install-test-tools.sh'), `${doc} names the install command`);
      for (const tool of tools) assert.ok(text.includes(tool), `${doc} names ${tool}`);
    }
  });
});
