// The one parser of Accept-style headers: q-values per value, first mention wins, parameters other than q ignored;
// what the edge, the page cache, static files and REST decide from it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { accepts, namesType, preferredCoding, qualities } from './edge.server.ts';

describe('Accept-style headers', () => {
  it('reads each value’s q-value, lower case, the first mention counting', () => {
    const weights = qualities('Text/Markdown;charset=utf-8;Q=0.5, application/json, gzip;q=0, application/json;q=0.1, br;q=oops');
    assert.equal(weights.get('text/markdown'), 0.5);
    assert.equal(weights.get('application/json'), 1);
    assert.equal(weights.get('gzip'), 0);
    assert.equal(weights.get('br'), 0, 'a q-value that is not a number asks for nothing');
    assert.equal(qualities(undefined).size, 0);
  });

  it('names a type only with a q-value above 0, never through a wildcard', () => {
    assert.ok(namesType('application/x-ndjson', 'application/x-ndjson'));
    assert.ok(!namesType('application/x-ndjson;q=0', 'application/x-ndjson'));
    assert.ok(!namesType('*/*', 'application/x-ndjson'));
  });

  it('prefers br on a tie, gzip when it weighs more, nothing when both are refused', () => {
    assert.equal(preferredCoding('gzip, br'), 'br');
    assert.equal(preferredCoding('gzip;q=1, br;q=0.5'), 'gzip');
    assert.equal(preferredCoding('gzip;q=0, br;q=0'), undefined);
    assert.ok(accepts('*', 'gzip'));
    assert.ok(!accepts('*, gzip;q=0', 'gzip'));
  });
});
