// Console sessions: a signed, HttpOnly cookie naming a server-side session record. Logout deletes the
// record; changing ADMIN_TOKEN revokes every session made with the old one; login always makes a new id.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { readJson, writeFileAtomic } from './files.server.ts';

interface SessionRecord {
  createdAt: number;
  expiresAt: number;
  /** Digest of the admin token the session was opened with. */
  token: string;
}

const LIFETIME_MS = 7 * 24 * 3600 * 1000;

export async function createSessionStore(dataDir: string, secret: string, adminToken: string) {
  const file = join(dataDir, 'sessions.json');
  const tokenDigest = createHash('sha256').update(adminToken).digest('hex');
  const records = new Map(Object.entries(await readJson<Record<string, SessionRecord>>(file, {})));
  const sign = (id: string) => createHmac('sha256', secret).update(id).digest('base64url');
  const persist = () => writeFileAtomic(file, JSON.stringify(Object.fromEntries(records)), 0o600);

  return {
    async create(): Promise<{ cookieValue: string; maxAgeSeconds: number }> {
      const id = randomBytes(32).toString('base64url');
      const now = Date.now();
      for (const [key, r] of records) if (r.expiresAt < now) records.delete(key);
      records.set(id, { createdAt: now, expiresAt: now + LIFETIME_MS, token: tokenDigest });
      await persist();
      return { cookieValue: `${id}.${sign(id)}`, maxAgeSeconds: LIFETIME_MS / 1000 };
    },
    /** The session id of a valid cookie value, else undefined. */
    verify(cookieValue: string | undefined): string | undefined {
      if (!cookieValue) return undefined;
      const [id, mac] = cookieValue.split('.');
      if (!id || !mac) return undefined;
      const expected = Buffer.from(sign(id));
      const given = Buffer.from(mac);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
      const record = records.get(id);
      if (!record || record.expiresAt < Date.now() || record.token !== tokenDigest) return undefined;
      return id;
    },
    async destroy(id: string): Promise<void> {
      if (records.delete(id)) await persist();
    },
  };
}

export type SessionStore = Awaited<ReturnType<typeof createSessionStore>>;
