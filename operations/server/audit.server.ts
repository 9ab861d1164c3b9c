// The audit trail: who signed in (or failed to), committed, promoted or changed an account, when and from which
// address. Appended to a JSON-lines file under DATA_DIR (one instance), or to a Redis list shared by every instance.
// An event's id is its place in the trail (1, 2, …), so a page is a range read. Never a token, a cookie or a body.
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { writeFileAtomic } from './files.server.ts';
import { dirname, join } from 'node:path';
import type { Redis } from 'ioredis';
import { refusingWhenUnreachable } from './shared-state.server.ts';
import type { AuditAction } from '../contract/roles.ts';

export type { AuditAction };

export interface AuditEvent {
  id: string;
  at: string;
  action: AuditAction;
  actor: { id: string; name: string } | null;
  ip: string;
  detail: string;
}

export type AuditEntry = Omit<AuditEvent, 'id' | 'at'>;

export interface AuditTrail {
  /** Appends an event (its id and time are given here). A trail that cannot be written is logged by the caller, never fatal to the request. */
  record(entry: AuditEntry): Promise<void>;
  /** Newest first: `limit` events older than `cursor` (an event id), and the cursor of the page after. */
  page(options: { cursor?: string; limit: number }): Promise<{ events: AuditEvent[]; next: string | null }>;
}

const DETAIL_MAX = 500;

/** How many events the trail keeps (about 25 MB); beyond it the oldest are dropped a tenth at a time. Ids never change. */
export const AUDIT_KEEP = 100_000;

/** A trail that keeps nothing (tests of other parts, and a service made without one). */
export const noAudit: AuditTrail = { record: async () => {}, page: async () => ({ events: [], next: null }) };

export async function createAuditTrail(dataDir: string, redis?: Redis, now: () => Date = () => new Date(), keep: number = AUDIT_KEEP): Promise<AuditTrail> {
  const drop = Math.max(1, Math.floor(keep / 10));
  const store = redis ? redisLines(redis, keep, drop) : await fileLines(join(dataDir, 'audit.jsonl'), keep, drop);
  return {
    async record(entry) {
      const line = { ...entry, detail: entry.detail.slice(0, DETAIL_MAX), at: now().toISOString() };
      await store.append(JSON.stringify(line));
    },
    async page({ cursor, limit }) {
      // Event ids are 1-based and count the dropped ones too: event n is line n - 1 - dropped.
      const { dropped, length } = await store.extent();
      const last = dropped + length;
      const top = Math.min(last, cursor === undefined ? last : Number(cursor) - 1);
      const start = Math.max(dropped, top - limit);
      if (top <= start) return { events: [], next: null };
      const lines = await store.range(start - dropped, top - 1 - dropped);
      const events = lines.map((text, i) => ({ id: String(start + i + 1), ...(JSON.parse(text) as Omit<AuditEvent, 'id'>) })).reverse();
      return { events, next: start > dropped ? String(start + 1) : null };
    },
  };
}

interface Lines {
  append(line: string): Promise<void>;
  /** How many of the oldest lines were dropped, and how many are kept, read together. */
  extent(): Promise<{ dropped: number; length: number }>;
  /** Kept lines `from` to `to`, both included (0-based). */
  range(from: number, to: number): Promise<string[]>;
}

/**
 * The file read once at start; each event appended as one line (a line cut by a crash is skipped when read back).
 * Past `keep` lines the oldest `drop` go: the file is rewritten whole, starting with a line that counts what was dropped.
 */
async function fileLines(file: string, keep: number, drop: number): Promise<Lines> {
  let lines: string[] = [];
  let dropped = 0;
  try {
    for (const line of (await readFile(file, 'utf8')).split('\n')) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      if (value && typeof value === 'object' && 'dropped' in value) dropped = Number(value.dropped) || 0;
      else lines.push(line);
    }
  } catch {
    await mkdir(dirname(file), { recursive: true });
  }
  let writing = Promise.resolve();
  return {
    append(line) {
      lines.push(line);
      if (lines.length > keep) {
        lines = lines.slice(drop);
        dropped += drop;
        const whole = [JSON.stringify({ dropped }), ...lines].join('\n') + '\n';
        writing = writing.then(() => writeFileAtomic(file, whole, 0o600));
      } else writing = writing.then(() => appendFile(file, `${line}\n`, { mode: 0o600 }));
      return writing;
    },
    extent: async () => ({ dropped, length: lines.length }),
    range: async (from, to) => lines.slice(from, to + 1),
  };
}

const KEY = 'vitae:audit';
const DROPPED = 'vitae:audit:dropped';

/** A Redis list, and a count of the lines dropped from its head (moved in the same transaction as the trim). */
function redisLines(redis: Redis, keep: number, drop: number): Lines {
  const call = refusingWhenUnreachable('The audit trail');
  return {
    append: (line) =>
      call(async () => {
        const length = await redis.rpush(KEY, line);
        if (length > keep) await redis.multi().ltrim(KEY, drop, -1).incrby(DROPPED, drop).exec();
      }),
    extent: () =>
      call(async () => {
        const [dropped, length] = (await redis.multi().get(DROPPED).llen(KEY).exec())!.map(([error, value]) => {
          if (error) throw error;
          return Number(value ?? 0);
        });
        return { dropped: dropped!, length: length! };
      }),
    range: (from, to) => call(() => redis.lrange(KEY, from, to)),
  };
}
