// The accounts that edit besides the owner: each with a name, an email, a role and tokens stored only as
// digests (a token is shown once, when it is made). Kept in a JSON file under DATA_DIR (one instance), or in
// Redis when RATE_LIMIT_STORE points at one: every check reads the store, nothing is cached per instance, so a
// token revoked on one instance is refused by every other at its next request.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { refusingWhenUnreachable } from './shared-state.server.ts';
import { AppError } from '../contract/errors.ts';
import { OWNER_ID, type Role } from '../contract/roles.ts';
import { readJson, writeFileAtomic } from './files.server.ts';
import type { Account } from './implement.server.ts';

export interface TokenRecord {
  id: string;
  /** sha256 of the token, hex. */
  digest: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface EditorRecord extends Account {
  createdAt: string;
  tokens: TokenRecord[];
}

/** At most this many live tokens per editor (one per device is plenty). */
export const TOKENS_MAX = 10;

export const tokenDigest = (token: string) => createHash('sha256').update(token).digest('hex');

/** The owner: whoever holds ADMIN_TOKEN, a publisher; their commits keep the service's own identity. */
export const owner: Account = { id: OWNER_ID, name: 'Owner', email: '', role: 'publisher' };

/** An account as a principal carries it (no tokens). */
const accountOf = ({ id, name, email, role }: Account): Account => ({ id, name, email, role });

/** Who a credential belongs to: ADMIN_TOKEN is the owner's, any other live token an editor's. */
export interface Credentials {
  /** The account of a token and the digest a session opened with it keeps, or undefined for a token nobody holds. */
  resolve(token: string): Promise<{ account: Account; digest: string } | undefined>;
  /** The account whose credential has this digest while it is live (a console session's check at each request). */
  ofDigest(digest: string): Promise<Account | undefined>;
}

export function createCredentials(adminToken: string, editors: Pick<EditorStore, 'byDigest'>): Credentials {
  const ownerDigest = Buffer.from(tokenDigest(adminToken), 'hex');
  const ofDigest = async (digest: string) => {
    const given = Buffer.from(digest, 'hex');
    if (given.length === ownerDigest.length && timingSafeEqual(given, ownerDigest)) return owner;
    const found = await editors.byDigest(digest);
    return found ? accountOf(found.editor) : undefined;
  };
  return {
    async resolve(token) {
      const digest = tokenDigest(token);
      const account = await ofDigest(digest);
      return account ? { account, digest } : undefined;
    },
    ofDigest,
  };
}

/** Where the records are: a file, or Redis hashes (editors by id, editor ids by token digest). */
interface Records {
  all(): Promise<EditorRecord[]>;
  get(id: string): Promise<EditorRecord | undefined>;
  idOfDigest(digest: string): Promise<string | undefined>;
  /**
   * Replaces `before` (undefined: no record with that id yet) with `after` (undefined: the record goes), with its token
   * index, only if the record is still `before`: false, and nothing written, when another request changed it meanwhile.
   */
  swap(id: string, before: EditorRecord | undefined, after: EditorRecord | undefined): Promise<boolean>;
  /**
   * When tokens were last used, kept apart from the records: noting a use never writes an editor's record, so it
   * cannot bring back a token revoked meanwhile.
   */
  touch(digest: string, at: string): Promise<void>;
  usedAt(digests: string[]): Promise<Array<string | null>>;
}

/** A token's use is noted at most this often (per instance), so a busy token costs no write per request. */
const TOUCH_EVERY_MS = 60_000;

export interface EditorStore {
  list(): Promise<EditorRecord[]>;
  get(id: string): Promise<EditorRecord | undefined>;
  /** The editor a token (by its digest) belongs to while it is live. */
  byDigest(digest: string): Promise<{ editor: EditorRecord; tokenId: string } | undefined>;
  add(input: { name: string; email: string; role: Role }): Promise<{ editor: EditorRecord; token: string }>;
  update(
    id: string,
    change: { name?: string; email?: string; role?: Role; newToken?: boolean; revokeToken?: string },
  ): Promise<{ editor: EditorRecord; token?: string; revoked?: string }>;
  remove(id: string): Promise<EditorRecord>;
}

export async function createEditorStore(dataDir: string, redis?: Redis, now: () => Date = () => new Date()): Promise<EditorStore> {
  const records = redis ? redisRecords(redis) : await fileRecords(join(dataDir, 'editors.json'));
  const issue = (): { token: string; record: TokenRecord } => {
    const id = randomId(8);
    const token = `vitae_${id}_${randomBytes(24).toString('base64url')}`;
    return { token, record: { id, digest: tokenDigest(token), createdAt: now().toISOString(), lastUsedAt: null } };
  };
  const missing = (id: string) => new AppError('not_found', `There is no editor "${id}"; \`vitae admin editors\` lists them.`);

  /**
   * A change made from the record as it is read, swapped in only if nobody changed it meanwhile (another request, another
   * instance): otherwise read again and made again, so two publishers' changes never undo each other (a revocation
   * cannot be lost to a role change made at the same moment).
   */
  async function change<T>(id: string, make: (before: EditorRecord | undefined) => { after: EditorRecord | undefined; value: T }): Promise<T> {
    const attempt = async () => {
      for (let tries = 0; tries < 10; tries++) {
        const before = await records.get(id);
        const { after, value } = make(before);
        if (await records.swap(after?.id ?? id, before, after)) return value;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * (tries + 1))); // another instance's change
      }
      throw new AppError('unavailable', 'The accounts kept changing while this change was made; try again in a moment.', { headers: { 'Retry-After': '1' } });
    };
    return serial(attempt);
  }

  // One change at a time in this process (they never race each other); other instances are what the swap is for.
  let inProcess: Promise<unknown> = Promise.resolve();
  function serial<T>(work: () => Promise<T>): Promise<T> {
    const result = inProcess.then(work);
    inProcess = result.catch(() => {});
    return result;
  }

  const touched = new Map<string, number>();
  /** The record with each token's last use. */
  const withUse = async (editor: EditorRecord): Promise<EditorRecord> => {
    const used = await records.usedAt(editor.tokens.map((t) => t.digest));
    return { ...editor, tokens: editor.tokens.map((t, i) => ({ ...t, lastUsedAt: used[i] ?? null })) };
  };

  return {
    list: async () => Promise.all((await records.all()).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)).map(withUse)),
    get: async (id) => {
      const editor = await records.get(id);
      return editor && withUse(editor);
    },
    async byDigest(digest) {
      const id = await records.idOfDigest(digest);
      const editor = id ? await records.get(id) : undefined;
      const token = editor?.tokens.find((t) => t.digest === digest);
      if (!editor || !token) return undefined;
      const at = now();
      if (at.getTime() - (touched.get(digest) ?? 0) >= TOUCH_EVERY_MS) {
        touched.set(digest, at.getTime());
        await records.touch(digest, at.toISOString()).catch(() => {}); // a use that cannot be noted is not a refusal
      }
      return { editor, tokenId: token.id };
    },
    add({ name, email, role }) {
      const base = slugOf(name);
      const attempt = async () => {
        for (;;) {
          const taken = new Set((await records.all()).map((e) => e.id));
          let id = base;
          for (let n = 2; taken.has(id) || id === OWNER_ID; n++) id = `${base.slice(0, 60)}-${n}`;
          const { token, record } = issue();
          const editor: EditorRecord = { id, name, email, role, createdAt: now().toISOString(), tokens: [record] };
          // Another instance may take the same id meanwhile: then the next free one is chosen.
          if (await records.swap(id, undefined, editor)) return { editor, token };
        }
      };
      return serial(attempt);
    },
    async update(id, wanted) {
      const { editor, token } = await change(id, (before) => {
        if (!before) throw missing(id);
        const { after, token } = changed(before, wanted);
        return { after, value: { editor: after, token } };
      });
      return { editor: await withUse(editor), ...(token ? { token } : {}), ...(wanted.revokeToken ? { revoked: wanted.revokeToken } : {}) };
    },
    remove: (id) =>
      change(id, (before) => {
        if (!before) throw missing(id);
        return { after: undefined, value: before };
      }),
  };

  /** The record with `change` applied (a token issued or revoked, a name, an email or a role), and the token issued. */
  function changed(before: EditorRecord, change: Parameters<EditorStore['update']>[1]): { after: EditorRecord; token?: string } {
    let tokens = before.tokens;
    if (change.revokeToken !== undefined) {
      if (!tokens.some((t) => t.id === change.revokeToken)) {
        throw new AppError('not_found', `${before.name} has no token "${change.revokeToken}"; the editor’s listing names their tokens.`);
      }
      tokens = tokens.filter((t) => t.id !== change.revokeToken);
    }
    let token: string | undefined;
    if (change.newToken) {
      if (tokens.length >= TOKENS_MAX) {
        throw new AppError('bad_request', `${before.name} already has ${TOKENS_MAX} tokens; revoke one first.`, {
          errors: [{ pointer: '/newToken', message: 'too many tokens' }],
        });
      }
      const issued = issue();
      token = issued.token;
      tokens = [...tokens, issued.record];
    }
    const after: EditorRecord = {
      ...before,
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.email !== undefined ? { email: change.email } : {}),
      ...(change.role !== undefined ? { role: change.role } : {}),
      tokens,
    };
    return { after, ...(token ? { token } : {}) };
  }
}

/** An id made from a name: lower-case ASCII letters and digits joined by hyphens ("Ada Lovelace" → ada-lovelace). */
function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return slug || `editor-${randomId(4)}`;
}

function randomId(length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
}

async function fileRecords(file: string): Promise<Records> {
  const kept = await readJson<{ editors?: EditorRecord[]; used?: Record<string, string> }>(file, {});
  const editors = new Map<string, EditorRecord>(kept.editors?.map((e) => [e.id, e] as const) ?? []);
  const used = new Map(Object.entries(kept.used ?? {}));
  const live = () => new Set([...editors.values()].flatMap((e) => e.tokens.map((t) => t.digest)));
  // One write at a time, each of the state as it is when it starts: a slow write never lands after a newer one.
  let writing = Promise.resolve();
  const persist = () => {
    writing = writing
      .catch(() => {})
      .then(() => {
        const digests = live();
        for (const digest of used.keys()) if (!digests.has(digest)) used.delete(digest);
        return writeFileAtomic(file, JSON.stringify({ editors: [...editors.values()], used: Object.fromEntries(used) }, null, 2), 0o600);
      });
    return writing;
  };
  return {
    async touch(digest, at) {
      if (!live().has(digest)) return;
      used.set(digest, at);
      await persist();
    },
    usedAt: async (digests) => digests.map((d) => used.get(d) ?? null),
    all: async () => [...editors.values()],
    get: async (id) => editors.get(id),
    idOfDigest: async (digest) => [...editors.values()].find((e) => e.tokens.some((t) => t.digest === digest))?.id,
    async swap(id, before, after) {
      // Compared and set with no await between: nothing else in this process runs meanwhile.
      if (JSON.stringify(editors.get(id)) !== JSON.stringify(before)) return false;
      if (after) editors.set(id, after);
      else editors.delete(id);
      await persist();
      return true;
    },
  };
}

const EDITORS = 'vitae:editors';
const TOKENS = 'vitae:editor-tokens';
const USED = 'vitae:editor-token-used';

/**
 * Compare-and-swap of one editor's record with its token index, atomic in Redis: the record must still be ARGV[2]
 * ('' for none); then it becomes ARGV[3] ('' removes it), ARGV[4] digests point at it and the rest point at nothing.
 */
const SWAP = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if (current or '') ~= ARGV[2] then return 0 end
if ARGV[3] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
local kept = tonumber(ARGV[4])
for i = 5, 4 + kept do redis.call('HSET', KEYS[2], ARGV[i], ARGV[1]) end
for i = 5 + kept, #ARGV do
  redis.call('HDEL', KEYS[2], ARGV[i])
  redis.call('HDEL', KEYS[3], ARGV[i])
end
return 1
`;

/**
 * Two hashes: editors by id (JSON), and editor ids by token digest. A Redis that cannot be reached refuses: no
 * token is honoured unchecked, and a change that could not be recorded says so (503).
 */
function redisRecords(redis: Redis): Records {
  const call = refusingWhenUnreachable('The account store');
  return {
    all: () => call(async () => Object.values(await redis.hgetall(EDITORS)).map((text) => JSON.parse(text) as EditorRecord)),
    get: (id) =>
      call(async () => {
        const text = await redis.hget(EDITORS, id);
        return text ? (JSON.parse(text) as EditorRecord) : undefined;
      }),
    idOfDigest: (digest) => call(async () => (await redis.hget(TOKENS, digest)) ?? undefined),
    swap: (id, before, after) =>
      call(async () => {
        const digests = (record: EditorRecord | undefined) => new Set(record?.tokens.map((t) => t.digest) ?? []);
        const kept = digests(after);
        const gone = [...digests(before)].filter((d) => !kept.has(d));
        const args = [id, before ? JSON.stringify(before) : '', after ? JSON.stringify(after) : '', String(kept.size), ...kept, ...gone];
        return (await redis.eval(SWAP, 3, EDITORS, TOKENS, USED, ...args)) === 1;
      }),
    touch: (digest, at) =>
      call(async () => {
        await redis.hset(USED, digest, at);
      }),
    usedAt: (digests) => call(async () => (digests.length ? (await redis.hmget(USED, ...digests)).map((v) => v ?? null) : [])),
  };
}
