import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freePorts } from './server-process.ts';

describe('freePorts', () => {
  it('gives ports that all differ: a server and its preview never get the same one', async () => {
    // The kernel hands a port just closed out again first: asked one at a time, two in a row were once equal
    // (a crash test's server refused PREVIEW_PORT = PORT). Many pairs, so a regression shows.
    for (let round = 0; round < 50; round++) {
      const ports = await freePorts(3);
      assert.equal(new Set(ports).size, 3, `ports ${ports.join(', ')}`);
      for (const port of ports) assert.ok(port > 0 && port < 65536);
    }
  });
});
