// The console's copy of the admin routes is the operation list's: same operations, same routes, so the browser
// calls exactly the REST route the list declares (and /openapi.json describes).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { operations } from '../../operations/contract/index.ts';
import { consoleRoutes } from './operation-routes.ts';
import { requestOf } from './api.ts';

describe('the console’s route table', () => {
  it('has every admin operation of the list, and only those, at the route the list declares', () => {
    const admin = operations.filter((op) => op.auth === 'admin');
    const expected = Object.fromEntries(admin.map((op) => [op.name, op.rest]));
    // On a difference, the message is the table to paste into operation-routes.ts.
    assert.deepEqual(consoleRoutes, expected, `operation-routes.ts should read:\n${JSON.stringify(expected, null, 2)}`);
  });

  it('names no public operation: the console runs as the signed-in editor', () => {
    const publicNames = operations.filter((op) => op.auth === 'public').map((op) => op.name);
    assert.deepEqual(
      Object.keys(consoleRoutes).filter((name) => publicNames.includes(name as never)),
      [],
    );
  });
});

describe('a console call as an HTTP request', () => {
  it('puts a read’s input in the query string, a write’s in a JSON body', () => {
    assert.deepEqual(requestOf('admin_history', { branch: 'dev', path: 'content/brief.md', limit: 1 }), {
      method: 'GET',
      url: '/api/admin/history?branch=dev&path=content%2Fbrief.md&limit=1',
      body: undefined,
    });
    assert.deepEqual(requestOf('admin_validate', { path: 'content/brief.md', content: 'x', branch: 'dev' }), {
      method: 'POST',
      url: '/api/admin/validate',
      body: '{"path":"content/brief.md","content":"x","branch":"dev"}',
    });
    assert.deepEqual(requestOf('admin_delete_file', { path: 'content/skills/x.md', message: 'Remove x', branch: 'dev' }), {
      method: 'DELETE',
      url: '/api/admin/file',
      body: '{"path":"content/skills/x.md","message":"Remove x","branch":"dev"}',
    });
  });

  it('leaves out what the input leaves undefined', () => {
    assert.equal(
      requestOf('admin_read_file', { path: 'content/brief.md', branch: 'main', ref: undefined }).url,
      '/api/admin/file?path=content%2Fbrief.md&branch=main',
    );
  });
});
