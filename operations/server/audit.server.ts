// The audit trail: who signed in (or failed to), committed, promoted or changed an account, when and from which
// address. Appended to a JSON-lines file under DATA_DIR (one instance), or to a Redis list shared by every instance.
// An event's id is its place in the trail (1, 2, …), so a page is a range read. Never a token, a cookie or a body.
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Redis } from 'ioredis';
import type { AuditAction } from '../contract/roles.ts';
import { AppError } from '../contract/errors.ts';

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

/** A trail that keeps nothing (tests of other parts, and a service made without one). */
export const noAudit: AuditTrail = { record: async () => {}, page: async () => ({ events: [], next: null }) };

export async function createAuditTrail(dataDir: string, redis?: Redis, now: () => Date = () => new Date()): Promise<AuditTrail> {
  const store = redis ? redisLines(redis) : await fileLines(join(dataDir, 'audit.jsonl'));
  return {
    async record(entry) {
      const line = { ...entry, detail: entry.detail.slice(0, DETAIL_MAX), at: now().toISOString() };
      await store.append(JSON.stringify(line));
    },
    async page({ cursor, limit }) {
      const length = await store.length();
      const top = Math.min(length, cursor === undefined ? length : Number(cursor) - 1); // ids are 1-based: event n is line n - 1
      const start = Math.max(0, top - limit);
      if (top <= 0) return { events: [], next: null };
      const lines = await store.range(start, top - 1);
      const events = lines.map((text, i) => ({ id: String(start + i + 1), ...(JSON.parse(text) as Omit<AuditEvent, 'id'>) })).reverse();
      return { events, next: start > 0 ? String(start + 1) : null };
    },
  };
}

interface Lines {
  append(line: string): Promise<void>;
  length(): Promise<number>;
  /** Lines `from` to `to`, both included (0-based). */
  range(from: number, to: number): Promise<string[]>;
}

/** The file read once at start; each event appended as one line (a line cut by a crash is skipped when read back). */
async function fileLines(file: string): Promise<Lines> {
  let lines: string[] = [];
  try {
    lines = (await readFile(file, 'utf8')).split('\n').filter((line) => {
      try {
        JSON.parse(line);
        return true;
      } catch {
        return false;
      }
    });
  } catch {
    await mkdir(dirname(file), { recursive: true });
  }
  let writing = Promise.resolve();
  return {
    append(line) {
      lines.push(line);
      writing = writing.then(() => appendFile(file, `${line}\n`, { mode: 0o600 }));
      return writing;
    },
    length: async () => lines.length,
    range: async (from, to) => lines.slice(from, to + 1),
  };
}

const KEY = 'vitae:audit';

function redisLines(redis: Redis): Lines {
  const unavailable = (error: unknown) => new AppError('unavailable', `The audit trail (Redis) cannot be reached: ${(error as Error).message}`);
  return {
    append: async (line) => {
      await redis.rpush(KEY, line).catch((error: unknown) => {
        throw unavailable(error);
      });
    },
    length: () =>
      redis.llen(KEY).catch((error: unknown) => {
        throw unavailable(error);
      }),
    range: (from, to) =>
      redis.lrange(KEY, from, to).catch((error: unknown) => {
        throw unavailable(error);
      }),
  };
}
