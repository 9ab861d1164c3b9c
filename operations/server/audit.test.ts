// The audit trail's own rules, on its file store: newest first a page at a time, ids that never change, and a bounded
// size (the oldest events dropped a tenth at a time), the same after a restart. (Over HTTP, with Redis shared by two
// instances, see editors.test.ts and editors-shared.test.ts.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuditTrail, type AuditTrail } from './audit.server.ts';

async function all(trail: AuditTrail, limit: number) {
  const events = [];
  let cursor: string | undefined;
  do {
    const page = await trail.page({ cursor, limit });
    events.push(...page.events);
    cursor = page.next ?? undefined;
  } while (cursor);
  return events;
}

describe('the audit trail (file)', () => {
  it('keeps at most its bound, dropping the oldest a tenth at a time; ids stay those events were given, after a restart too', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vitae-audit-'));
    try {
      const trail = await createAuditTrail(dir, undefined, () => new Date('2026-11-27T10:00:00Z'), 20);
      for (let i = 1; i <= 45; i++) await trail.record({ action: 'commit', actor: { id: 'ada', name: 'Ada' }, ip: '10.0.0.1', detail: `commit ${i}` });
      const kept = await all(trail, 7);
      // 45 events, a bound of 20 dropping 2 at a time: the newest 19 or 20 are kept, each under the id it was given.
      assert.ok(kept.length <= 20 && kept.length >= 18, `${kept.length} kept`);
      assert.deepEqual(
        kept.map((e) => [e.id, e.detail]),
        kept.map((_, i) => [String(45 - i), `commit ${45 - i}`]),
      );
      assert.deepEqual((await trail.page({ cursor: String(46 - kept.length), limit: 5 })).events, [], 'nothing older than what is kept');
      const again = await createAuditTrail(dir, undefined, undefined, 20);
      assert.deepEqual(await all(again, 50), kept, 'the same after a restart');
      await again.record({ action: 'sign-in', actor: null, ip: '10.0.0.2', detail: 'the console' });
      assert.equal((await again.page({ limit: 1 })).events[0]!.id, '46');
      assert.ok((await readFile(join(dir, 'audit.jsonl'), 'utf8')).split('\n').length <= 23, 'the file is bounded too');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
