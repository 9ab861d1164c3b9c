// The least-recently-used policy the caches share: a read or a write renews an entry, a peek does not, and a
// write past the limit drops the entry used longest ago.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LruMap } from './lru-map.ts';

/** The keys a map still holds, of those given. */
const held = (map: LruMap<string, number>, keys: string[]) => keys.filter((key) => map.peek(key) !== undefined);

describe('LRU map', () => {
  it('holds at most its limit, dropping the entry written longest ago', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('c', 3);
    assert.equal(map.size, 2);
    assert.deepEqual(held(map, ['a', 'b', 'c']), ['b', 'c']);
  });

  it('renews an entry that is read, so the one used longest ago goes first', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    assert.equal(map.get('a'), 1);
    map.set('c', 3);
    assert.deepEqual(held(map, ['a', 'b', 'c']), ['a', 'c']);
  });

  it('renews an entry written again, with its new value', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 10).set('c', 3);
    assert.deepEqual(held(map, ['a', 'b', 'c']), ['a', 'c']);
    assert.equal(map.peek('a'), 10);
  });

  it('leaves the order of use as it was on a peek', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    assert.equal(map.peek('a'), 1);
    map.set('c', 3);
    assert.deepEqual(held(map, ['a', 'b', 'c']), ['b', 'c']);
  });

  it('answers undefined for a key it does not hold, without making room', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    assert.equal(map.get('x'), undefined);
    assert.equal(map.size, 2);
    assert.equal(map.delete('a'), true);
    assert.equal(map.delete('a'), false);
    assert.deepEqual(held(map, ['a', 'b']), ['b']);
  });
});
