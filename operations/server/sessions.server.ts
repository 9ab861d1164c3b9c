// Console sessions: a signed, HttpOnly cookie naming a server-side session record. Logout deletes the
// record; a session lives only while the credential it was opened with does (changing ADMIN_TOKEN ends the
// owner's, revoking an editor's token or removing the editor ends theirs); login always makes a new id.
// The records live in a JSON file under DATA_DIR (one instance), or in Redis when RATE_LIMIT_STORE points
// at one, so that a session opened on one instance works on every other and a logout anywhere ends it
// everywhere: every check reads the record, nothing is cached per instance.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { refusingWhenUnreachable } from './shared-state.server.ts';
import { readJson, writeFileAtomic } from './files.server.ts';
import type { Credentials } from './editors.server.ts';
import type { Account } from './implement.server.ts';

interface SessionRecord {
  createdAt: number;
  expiresAt: number;
  /** Digest of the token the session was opened with (ADMIN_TOKEN's or an editor's). */
  token: string;
  /** The account it was opened for (absent in records made before accounts). */
  account?: string;
}

const LIFETIME_MS = 7 * 24 * 3600 * 1000;

/** Live console sessions one account may have at once (browsers, devices); a new sign-in beyond it ends the oldest. */
export const SESSIONS_PER_ACCOUNT = 20;

export interface SessionStore {
  /** A new session of `account` for the credential with this digest (Credentials.resolve); its oldest beyond SESSIONS_PER_ACCOUNT end. */
  create(digest: string, account: string): Promise<{ cookieValue: string; maxAgeSeconds: number }>;
  /** The session id of a valid cookie value, else undefined. */
  verify(cookieValue: string | undefined): Promise<string | undefined>;
  /**
   * What a cookie value is: `forged` (malformed, or not signed with SESSION_SECRET: a guess), `ended` (ours, but
   * its session was closed, has expired or its credential was revoked), or `live` with the session's id and account.
   */
  inspect(cookieValue: string): Promise<CookieState>;
  destroy(id: string): Promise<void>;
}

export type CookieState = { state: 'forged' } | { state: 'ended' } | { state: 'live'; id: string; account: Account };

/** Where session records are kept: a map persisted to a file, or Redis keys that expire with the session. */
interface RecordStore {
  get(id: string): Promise<SessionRecord | undefined>;
  /** Keeps the record, and ends the account's oldest sessions beyond `perAccount`. */
  set(id: string, record: SessionRecord & { account: string }, perAccount: number): Promise<void>;
  delete(id: string): Promise<void>;
}

export async function createSessionStore(
  dataDir: string,
  secret: string,
  credentials: Pick<Credentials, 'ofDigest'>,
  redis?: Redis,
  perAccount = SESSIONS_PER_ACCOUNT,
): Promise<SessionStore> {
  const sign = (id: string) => createHmac('sha256', secret).update(id).digest('base64url');
  const records = redis ? redisRecords(redis) : await fileRecords(join(dataDir, 'sessions.json'));

  async function inspect(cookieValue: string): Promise<CookieState> {
    const [id, mac] = cookieValue.split('.');
    if (!id || !mac) return { state: 'forged' };
    const expected = Buffer.from(sign(id));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { state: 'forged' };
    const record = await records.get(id);
    if (!record || record.expiresAt < Date.now()) return { state: 'ended' };
    const account = await credentials.ofDigest(record.token);
    return account ? { state: 'live', id, account } : { state: 'ended' };
  }

  return {
    async create(digest, account) {
      const id = randomBytes(32).toString('base64url');
      const now = Date.now();
      await records.set(id, { createdAt: now, expiresAt: now + LIFETIME_MS, token: digest, account }, perAccount);
      return { cookieValue: `${id}.${sign(id)}`, maxAgeSeconds: LIFETIME_MS / 1000 };
    },
    async verify(cookieValue) {
      if (!cookieValue) return undefined;
      const cookie = await inspect(cookieValue);
      return cookie.state === 'live' ? cookie.id : undefined;
    },
    inspect,
    destroy: (id) => records.delete(id),
  };
}

async function fileRecords(file: string): Promise<RecordStore> {
  const records = new Map(Object.entries(await readJson<Record<string, SessionRecord>>(file, {})));
  const persist = () => writeFileAtomic(file, JSON.stringify(Object.fromEntries(records)), 0o600);
  return {
    get: async (id) => records.get(id),
    async set(id, record, perAccount) {
      const now = Date.now();
      for (const [key, r] of records) if (r.expiresAt < now) records.delete(key);
      records.set(id, record);
      const mine = [...records].filter(([, r]) => r.account === record.account).sort(([, x], [, y]) => x.createdAt - y.createdAt);
      for (const [key] of mine.slice(0, Math.max(0, mine.length - perAccount))) records.delete(key);
      await persist();
    },
    async delete(id) {
      if (records.delete(id)) await persist();
    },
  };
}

/**
 * One key per session, named by a digest of its id (a copy of Redis holds no cookie), expiring with it.
 * A Redis that cannot be reached refuses: a session is not honoured unchecked, and a sign-in or sign-out
 * that could not be recorded says so (503) instead of pretending.
 */
function redisRecords(redis: Redis): RecordStore {
  const key = (id: string) => `vitae:session:${createHash('sha256').update(id).digest('hex')}`;
  const call = refusingWhenUnreachable('The session store');
  return {
    async get(id) {
      try {
        const text = await redis.get(key(id));
        return text ? (JSON.parse(text) as SessionRecord) : undefined;
      } catch {
        return undefined; // not verifiable now: treated as signed out
      }
    },
    async set(id, record, perAccount) {
      // The account's sessions by their start, in a sorted set of session keys beside them: past the cap, the oldest go
      // (keys that expired on their own are dropped from the set on the way).
      const mine = `vitae:sessions-of:${createHash('sha256').update(record.account).digest('hex')}`;
      await call(async () => {
        await redis
          .multi()
          .set(key(id), JSON.stringify(record), 'PX', Math.max(1, record.expiresAt - Date.now()))
          .zadd(mine, record.createdAt, key(id))
          .zremrangebyscore(mine, 0, record.createdAt - LIFETIME_MS)
          .pexpire(mine, LIFETIME_MS)
          .exec();
        const beyond = (await redis.zcard(mine)) - perAccount;
        if (beyond > 0) {
          const oldest = await redis.zpopmin(mine, beyond);
          const ended = oldest.filter((_, i) => i % 2 === 0); // member, score, member, score…
          if (ended.length) await redis.del(...ended);
        }
      });
    },
    async delete(id) {
      await call(() => redis.del(key(id)));
    },
  };
}
