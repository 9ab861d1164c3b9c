// The accounts that edit besides the owner: each with a name, an email, a role and tokens stored only as
// digests (a token is shown once, when it is made). Kept in a JSON file under DATA_DIR (one instance), or in
// Redis when RATE_LIMIT_STORE points at one: every check reads the store, nothing is cached per instance, so a
// token revoked on one instance is refused by every other at its next request.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
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
  /** Writes the record and its token index: digests it no longer has are dropped (`before`: its previous version). */
  put(record: EditorRecord, before: EditorRecord | undefined): Promise<void>;
  delete(record: EditorRecord): Promise<void>;
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
    async add({ name, email, role }) {
      const taken = new Set((await records.all()).map((e) => e.id));
      const base = slugOf(name);
      let id = base;
      for (let n = 2; taken.has(id) || id === OWNER_ID; n++) id = `${base.slice(0, 60)}-${n}`;
      const { token, record } = issue();
      const editor: EditorRecord = { id, name, email, role, createdAt: now().toISOString(), tokens: [record] };
      await records.put(editor, undefined);
      return { editor, token };
    },
    async update(id, change) {
      const before = await records.get(id);
      if (!before) throw missing(id);
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
      const editor: EditorRecord = {
        ...before,
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.email !== undefined ? { email: change.email } : {}),
        ...(change.role !== undefined ? { role: change.role } : {}),
        tokens,
      };
      await records.put(editor, before);
      return { editor: await withUse(editor), ...(token ? { token } : {}), ...(change.revokeToken ? { revoked: change.revokeToken } : {}) };
    },
    async remove(id) {
      const editor = await records.get(id);
      if (!editor) throw missing(id);
      await records.delete(editor);
      return editor;
    },
  };
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
  const persist = () => {
    const digests = live();
    for (const digest of used.keys()) if (!digests.has(digest)) used.delete(digest);
    return writeFileAtomic(file, JSON.stringify({ editors: [...editors.values()], used: Object.fromEntries(used) }, null, 2), 0o600);
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
    async put(record) {
      editors.set(record.id, record);
      await persist();
    },
    async delete(record) {
      editors.delete(record.id);
      await persist();
    },
  };
}

const EDITORS = 'vitae:editors';
const TOKENS = 'vitae:editor-tokens';
const USED = 'vitae:editor-token-used';

/**
 * Two hashes: editors by id (JSON), and editor ids by token digest. A Redis that cannot be reached refuses: no
 * token is honoured unchecked, and a change that could not be recorded says so (503).
 */
function redisRecords(redis: Redis): Records {
  const unavailable = (error: unknown) => new AppError('unavailable', `The account store (Redis) cannot be reached: ${(error as Error).message}`);
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw unavailable(error);
    }
  };
  return {
    all: () => call(async () => Object.values(await redis.hgetall(EDITORS)).map((text) => JSON.parse(text) as EditorRecord)),
    get: (id) =>
      call(async () => {
        const text = await redis.hget(EDITORS, id);
        return text ? (JSON.parse(text) as EditorRecord) : undefined;
      }),
    idOfDigest: (digest) => call(async () => (await redis.hget(TOKENS, digest)) ?? undefined),
    put: (record, before) =>
      call(async () => {
        const gone = (before?.tokens ?? []).filter((t) => !record.tokens.some((k) => k.digest === t.digest)).map((t) => t.digest);
        const multi = redis.multi().hset(EDITORS, record.id, JSON.stringify(record));
        for (const token of record.tokens) multi.hset(TOKENS, token.digest, record.id);
        if (gone.length) multi.hdel(TOKENS, ...gone).hdel(USED, ...gone);
        await multi.exec();
      }),
    touch: (digest, at) =>
      call(async () => {
        await redis.hset(USED, digest, at);
      }),
    usedAt: (digests) => call(async () => (digests.length ? (await redis.hmget(USED, ...digests)).map((v) => v ?? null) : [])),
    delete: (record) =>
      call(async () => {
        const multi = redis.multi().hdel(EDITORS, record.id);
        if (record.tokens.length) multi.hdel(TOKENS, ...record.tokens.map((t) => t.digest)).hdel(USED, ...record.tokens.map((t) => t.digest));
        await multi.exec();
      }),
  };
}
