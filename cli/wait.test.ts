// `--wait` follows a publish run from the deploy status API: one line per stage change, success returns,
// failure and a run that never starts are exit 9. Driven by a scripted deploy status, in process.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '../operations/adapters/client.ts';
import { colours } from './colour.ts';
import { CliFailure } from './failure.ts';
import { followDeploy } from './wait.ts';

const COMMIT = 'a'.repeat(40);
type Status = 'queued' | 'running' | 'success' | 'failure' | 'skipped';

function run(status: string, stages: [Status, Status, Status], extra: Record<string, unknown> = {}) {
  const names = ['translate', 'build', 'deploy'] as const;
  return {
    id: 'run-1',
    branch: 'main',
    commit: COMMIT,
    status,
    createdAt: '2026-01-01T00:00:00Z',
    url: 'http://x/api/admin/deploys#run-1',
    siteUrl: 'http://site',
    stages: names.map((name, i) => ({
      name,
      status: stages[i],
      startedAt: stages[i] === 'queued' ? null : '2026-01-01T00:00:00Z',
      finishedAt: ['success', 'failure', 'skipped'].includes(stages[i]!) ? '2026-01-01T00:00:01Z' : null,
    })),
    ...extra,
  };
}

/** A client whose deploy status answers each poll with the next scripted list of runs (the last one repeats). */
function scripted(...polls: unknown[][]) {
  let i = 0;
  const requests: string[] = [];
  const fetch = (async (url: string) => {
    requests.push(url);
    const runs = polls[Math.min(i++, polls.length - 1)];
    return new Response(JSON.stringify({ runs }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { client: createClient({ baseUrl: 'http://x', token: 't', fetch }), requests };
}

const follow = (client: ReturnType<typeof createClient>, lines: string[], extra = {}) =>
  followDeploy({ client, branch: 'main', commit: COMMIT, colours: colours(false), write: (l) => lines.push(l), intervalMs: 1, ...extra });

describe('--wait', () => {
  it('prints a line per stage as it changes and returns when the run succeeds', async () => {
    const { client, requests } = scripted(
      [],
      [run('queued', ['queued', 'queued', 'queued'])],
      [run('running', ['skipped', 'running', 'queued'])],
      [run('running', ['skipped', 'running', 'queued'])],
      [run('running', ['skipped', 'success', 'running'])],
      [run('success', ['skipped', 'success', 'success'])],
    );
    const lines: string[] = [];
    const done = await follow(client, lines);
    assert.equal(done.status, 'success');
    assert.match(requests[0]!, /\/api\/admin\/deploys\?branch=main/);
    assert.deepEqual(
      lines.map((l) => l.trim().replace(/\s+/g, ' ')),
      [
        `Waiting for the publish run of ${COMMIT.slice(0, 7)} on main (translate → build → deploy)…`,
        '- translate skipped',
        '… build running',
        '✓ build success 1.0s',
        '… deploy running',
        '✓ deploy success 1.0s',
        '✓ Live on main: http://site',
      ],
    );
  });

  it('ends with exit 9 and the reason when the run fails', async () => {
    const { client } = scripted([run('failure', ['skipped', 'failure', 'queued'], { error: 'content invalid at aaaaaaa' })]);
    const lines: string[] = [];
    await assert.rejects(
      follow(client, lines),
      (e: unknown) => e instanceof CliFailure && e.exitCode === 9 && /failure: content invalid/.test(e.message) && /previous build stays live/.test(e.message),
    );
    assert.ok(lines.some((l) => /✗ build\s+failure/.test(l)));
  });

  it('ignores runs of other commits, and gives up with exit 9 when none starts for this one', async () => {
    const other = { ...run('success', ['success', 'success', 'success']), commit: 'b'.repeat(40) };
    const { client } = scripted([other]);
    const lines: string[] = [];
    await assert.rejects(
      follow(client, lines, { quietMs: 0, missingMs: 20 }),
      (e: unknown) => e instanceof CliFailure && e.exitCode === 9 && /No publish run started/.test(e.message),
    );
    assert.ok(lines.some((l) => /No run for aaaaaaa yet/.test(l)));
  });
});
