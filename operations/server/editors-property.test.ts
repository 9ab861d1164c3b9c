// A model-based property of the editors' accounts, over loopback HTTP against one service: random sequences of
// account changes (add an editor with a role, change a role, issue a token, revoke one, remove an editor), made by
// whichever credential the sequence picks, mixed with console sign-ins and requests (commit to dev, commit to
// main, promote, list the editors, read the audit, whoami) made with random held credentials — the owner's token,
// editors' live, revoked and removed tokens, and console sessions opened with any of them. The model predicts every
// answer: no request is ever allowed that its role forbids (403 `forbidden` naming the role), and no revoked or
// removed token, nor a session opened with one, is ever accepted (401). Commits are of a file as it already is
// (`changed: false`) and dev never gets ahead of main, so no call starts a publish run.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CREDENTIAL_WINDOW_MS } from './credential-throttle.server.ts';
import { TOKENS_MAX } from './editors.server.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';
import { call, expectStatus, type Reply } from '../../testing/accounts-http.ts';

const OWNER = 'editors-property-owner-token-1b7d3f5a9c';
const FILE = 'content/skills/python.md';
type Role = 'editor' | 'publisher';

let service: TestService;
let now = Date.now();
/** The file's text on each branch, committed again as it is: a commit that changes nothing (and starts no run). */
const unchanged: Record<'dev' | 'main', string> = { dev: '', main: '' };

before(async () => {
  // Each request comes from an address of its own (through a trusted proxy) and the clock of the credentials'
  // budgets moves a quarter of an hour on before each: refused tokens answer 401, never 429.
  service = await startTestService({ ADMIN_TOKEN: OWNER, CONTENT_DIR: englishOnlyContent(), TRUST_PROXY: 'true' }, { clock: () => now });
  for (const branch of ['dev', 'main'] as const) {
    unchanged[branch] = expectStatus(await call(service.url, 'GET', `/api/admin/file?path=${FILE}&branch=${branch}`, { token: OWNER }), 200).content;
  }
  const compare = expectStatus(await call(service.url, 'GET', '/api/admin/compare?base=main&target=dev', { token: OWNER }), 200);
  assert.equal(compare.aheadBy, 0, 'dev has nothing main lacks: a promote merges nothing');
});
after(() => service.stop());

interface Account {
  id: string;
  name: string;
  role: Role;
  removed: boolean;
}
/** A token the sequence holds: the owner's, or an editor's (live until revoked or its editor removed). */
interface Held {
  token: string;
  account: Account;
  tokenId: string;
  live: boolean;
}
/** A credential to call with: a token as a bearer, or the console session opened with one (it lives as long). */
type Credential = { kind: 'bearer'; held: Held } | { kind: 'session'; held: Held; cookie: string };

interface Model {
  editors: Account[];
  held: Held[];
  sessions: Credential[];
}

let requests = 0;
let emails = 0;
/** How often each kind of verdict came up, so that a run that never met one fails. */
const verdicts = new Map<string, number>();
const count = (verdict: string) => verdicts.set(verdict, (verdicts.get(verdict) ?? 0) + 1);
async function send(method: string, path: string, credential: Credential | undefined, body?: unknown): Promise<Reply> {
  now += CREDENTIAL_WINDOW_MS + 1;
  const n = ++requests;
  const address = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  const as = credential?.kind === 'session' ? { cookie: credential.cookie } : credential ? { token: credential.held.token } : {};
  return call(service.url, method, path, { ...as, body, address });
}

const credentials = (m: Model): Credential[] => [...m.held.map((held) => ({ kind: 'bearer' as const, held })), ...m.sessions];
/** An account by index, the newest editor first and the owner last. */
const pickAccount = (m: Model, pick: number): Account => {
  const accounts = [...m.editors].reverse().concat(m.held[0]!.account);
  return accounts[pick % accounts.length]!;
};
/** Newest first. */
const pickOf = <T>(list: T[], pick: number): T => list[list.length - 1 - (pick % list.length)]!;
/** The credential a command names: -1 the owner's token, else an account by index, then one of its credentials. */
const pickCredential = (m: Model, pick: number): Credential => {
  if (pick < 0) return { kind: 'bearer', held: m.held[0]! };
  const account = pickAccount(m, pick);
  return pickOf(
    credentials(m).filter((c) => c.held.account === account),
    Math.floor(pick / (m.editors.length + 1)),
  );
};
const describeCredential = (c: Credential) => `${c.held.account.id}${c.held.live ? '' : ' (dead)'} ${c.kind}`;

/**
 * What the model says of a call needing `role` by `credential`: 401 for a credential that is not live, 403 when
 * its account's role falls short, else undefined (the call runs). Checks the actual answer's status and body.
 */
function gate(reply: Reply, credential: Credential, role: Role | undefined, what: string): boolean {
  const context = `${what} by ${describeCredential(credential)}: ${reply.status} ${reply.text.slice(0, 300)}`;
  if (!credential.held.live) {
    count(`dead ${credential.kind} refused`);
    assert.equal(reply.status, 401, `a dead credential was not refused: ${context}`);
    assert.equal(reply.body.code, 'unauthorized', context);
    return false;
  }
  if (role === 'publisher' && credential.held.account.role !== 'publisher') {
    count(`editor ${credential.kind} forbidden`);
    assert.equal(reply.status, 403, `a call the role forbids was not refused: ${context}`);
    assert.equal(reply.body.code, 'forbidden', context);
    assert.equal(reply.body.role, 'publisher', context);
    assert.match(reply.body.message, new RegExp(`needs the publisher role; ${credential.held.account.name} is an editor`), context);
    return false;
  }
  count(
    `${credential.held.account.id === 'owner' ? 'owner' : credential.held.account.role} ${credential.kind} allowed${role === 'publisher' ? ' a publisher’s call' : ''}`,
  );
  assert.notEqual(reply.status, 401, `a live credential was refused: ${context}`);
  assert.notEqual(reply.status, 403, `a call the role allows was refused: ${context}`);
  return true;
}

class AddEditor implements fc.AsyncCommand<Model, unknown> {
  constructor(
    readonly role: Role,
    readonly by: number,
  ) {}
  check = () => true;
  async run(m: Model) {
    const by = pickCredential(m, this.by);
    const name = `Prop Editor ${++emails}`;
    const reply = await send('POST', '/api/admin/editors', by, { name, email: `prop-${emails}@example.org`, role: this.role });
    if (!gate(reply, by, 'publisher', 'add an editor')) return;
    const body = expectStatus(reply, 200);
    const account: Account = { id: body.id, name, role: this.role, removed: false };
    assert.equal(body.role, this.role);
    m.editors.push(account);
    m.held.push({ token: body.token, account, tokenId: body.tokens[0].id, live: true });
  }
  toString = () => `add ${this.role} by #${this.by}`;
}

/** A change to one editor (by index among those the sequence added, removed ones too). */
abstract class EditorChange implements fc.AsyncCommand<Model, unknown> {
  constructor(
    readonly target: number,
    readonly by: number,
  ) {}
  check = (m: Readonly<Model>) => m.editors.length > 0;
  abstract body(m: Model, target: Account): Record<string, unknown>;
  /** The answer's status when the call runs, and what it changes in the model. */
  abstract apply(m: Model, target: Account, reply: Reply): void;
  async run(m: Model) {
    const target = m.editors[this.target % m.editors.length]!;
    const by = pickCredential(m, this.by);
    const reply = await send('PATCH', `/api/admin/editors/${target.id}`, by, this.body(m, target));
    if (!gate(reply, by, 'publisher', `${this.toString()} (${target.id})`)) return;
    if (target.removed) {
      expectStatus(reply, 404, 'not_found');
      return;
    }
    this.apply(m, target, reply);
  }
}

class ChangeRole extends EditorChange {
  constructor(
    target: number,
    readonly role: Role,
    by: number,
  ) {
    super(target, by);
  }
  body = () => ({ role: this.role });
  apply(_m: Model, target: Account, reply: Reply) {
    assert.equal(expectStatus(reply, 200).role, this.role);
    target.role = this.role;
  }
  toString = () => `role of editor #${this.target} to ${this.role} by #${this.by}`;
}

class IssueToken extends EditorChange {
  body = () => ({ newToken: true });
  apply(m: Model, target: Account, reply: Reply) {
    if (m.held.filter((h) => h.account === target && h.live).length >= TOKENS_MAX) {
      expectStatus(reply, 400, 'bad_request');
      return;
    }
    const { token } = expectStatus(reply, 200);
    m.held.push({ token, account: target, tokenId: token.split('_')[1], live: true });
  }
  toString = () => `new token for editor #${this.target} by #${this.by}`;
}

class RevokeToken implements fc.AsyncCommand<Model, unknown> {
  constructor(
    readonly token: number,
    readonly by: number,
  ) {}
  check = (m: Readonly<Model>) => m.held.length > 1;
  async run(m: Model) {
    const held = m.held.slice(1)[this.token % (m.held.length - 1)]!; // an editor's token, live or not
    const by = pickCredential(m, this.by);
    const reply = await send('PATCH', `/api/admin/editors/${held.account.id}`, by, { revokeToken: held.tokenId });
    if (!gate(reply, by, 'publisher', `revoke ${held.account.id}'s ${held.tokenId}`)) return;
    if (!held.live) {
      expectStatus(reply, 404, 'not_found'); // already revoked, or its editor removed
      return;
    }
    assert.ok(!expectStatus(reply, 200).tokens.some((t: { id: string }) => t.id === held.tokenId));
    held.live = false;
  }
  toString = () => `revoke token #${this.token} by #${this.by}`;
}

class RemoveEditor implements fc.AsyncCommand<Model, unknown> {
  constructor(
    readonly target: number,
    readonly by: number,
  ) {}
  check = (m: Readonly<Model>) => m.editors.length > 0;
  async run(m: Model) {
    const target = m.editors[this.target % m.editors.length]!;
    const by = pickCredential(m, this.by);
    const reply = await send('DELETE', `/api/admin/editors/${target.id}`, by);
    if (!gate(reply, by, 'publisher', `remove ${target.id}`)) return;
    if (target.removed) {
      expectStatus(reply, 404, 'not_found');
      return;
    }
    expectStatus(reply, 200);
    target.removed = true;
    for (const held of m.held) if (held.account === target) held.live = false;
  }
  toString = () => `remove editor #${this.target} by #${this.by}`;
}

class SignIn implements fc.AsyncCommand<Model, unknown> {
  constructor(readonly token: number) {}
  check = () => true;
  async run(m: Model) {
    const account = pickAccount(m, this.token);
    const held = pickOf(
      m.held.filter((h) => h.account === account),
      Math.floor(this.token / (m.editors.length + 1)),
    );
    const reply = await send('POST', '/api/admin/login', undefined, { token: held.token });
    if (!held.live) {
      expectStatus(reply, 401, 'unauthorized');
      return;
    }
    expectStatus(reply, 204);
    m.sessions.push({ kind: 'session', held, cookie: reply.headers.get('set-cookie')!.split(';')[0]! });
  }
  toString = () => `sign in with token #${this.token}`;
}

const requestKinds = ['commit to dev', 'commit to main', 'promote', 'list editors', 'read the audit', 'whoami'] as const;
type RequestKind = (typeof requestKinds)[number];

class Request implements fc.AsyncCommand<Model, unknown> {
  constructor(
    readonly kind: RequestKind,
    readonly by: number,
  ) {}
  check = () => true;
  async run(m: Model) {
    const by = pickCredential(m, this.by);
    const commit = (branch: 'dev' | 'main') => send('PUT', '/api/admin/file', by, { path: FILE, content: unchanged[branch], message: 'Unchanged', branch });
    const [reply, role] = await (
      {
        'commit to dev': async () => [await commit('dev'), 'editor'],
        'commit to main': async () => [await commit('main'), 'publisher'],
        promote: async () => [await send('POST', '/api/admin/promote', by, {}), 'publisher'],
        'list editors': async () => [await send('GET', '/api/admin/editors', by), 'publisher'],
        'read the audit': async () => [await send('GET', '/api/admin/audit?limit=1', by), 'publisher'],
        whoami: async () => [await send('GET', '/api/admin/whoami', by), undefined],
      } satisfies Record<RequestKind, () => Promise<[Reply, Role | undefined]>>
    )[this.kind]();
    if (!gate(reply, by, role, this.kind)) return;
    const body = expectStatus(reply, 200);
    const { account } = by.held;
    if (this.kind === 'whoami') {
      const { id, role: current } = account;
      assert.deepEqual([body.id, body.role, body.via], [id, current, by.kind], 'whoami: the account as it is now');
    } else if (this.kind.startsWith('commit')) assert.equal(body.changed, false);
    else if (this.kind === 'promote') assert.equal(body.merged, false);
    else if (this.kind === 'list editors') {
      const listed = new Map<string, { role: Role; tokens: Array<{ id: string }> }>(body.editors.map((e: { id: string }) => [e.id, e]));
      for (const editor of m.editors) {
        assert.equal(listed.has(editor.id), !editor.removed, `${editor.id} listed`);
        if (editor.removed) continue;
        assert.equal(listed.get(editor.id)!.role, editor.role);
        const live = m.held.filter((h) => h.account === editor && h.live).map((h) => h.tokenId);
        assert.deepEqual(
          listed
            .get(editor.id)!
            .tokens.map((t) => t.id)
            .sort(),
          live.sort(),
          `${editor.id}'s live tokens`,
        );
      }
    }
  }
  toString = () => `${this.kind} by #${this.by}`;
}

const by = fc.oneof({ arbitrary: fc.constant(-1), weight: 2 }, { arbitrary: fc.nat(40), weight: 3 });
const role = fc.constantFrom<Role>('editor', 'publisher');
const commands = [
  fc.tuple(role, by).map(([r, b]) => new AddEditor(r, b)),
  fc.tuple(fc.nat(20), role, by).map(([t, r, b]) => new ChangeRole(t, r, b)),
  fc.tuple(fc.nat(20), by).map(([t, b]) => new IssueToken(t, b)),
  fc.tuple(fc.nat(40), by).map(([t, b]) => new RevokeToken(t, b)),
  fc.tuple(fc.nat(20), by).map(([t, b]) => new RemoveEditor(t, b)),
  fc.nat(40).map((t) => new SignIn(t)),
  fc.nat(40).map((t) => new SignIn(t)),
  fc.tuple(fc.constantFrom(...requestKinds), fc.nat(40)).map(([k, b]) => new Request(k, b)),
  fc.tuple(fc.constantFrom(...requestKinds), fc.nat(40)).map(([k, b]) => new Request(k, b)),
];

describe('editors’ accounts under random sequences of changes and requests', () => {
  it('never allows what a role forbids, and never accepts a revoked or removed token or its sessions', async (t) => {
    const owner: Account = { id: 'owner', name: 'Owner', role: 'publisher', removed: false };
    const outcome = await fc.check(
      fc.asyncProperty(fc.commands(commands, { size: 'large', maxCommands: 24 }), async (sequence) => {
        const model: Model = { editors: [], held: [{ token: OWNER, account: owner, tokenId: 'owner', live: true }], sessions: [] };
        // Each sequence starts with an editor and a publisher besides the owner, each signed in to the console
        // once; it adds more of everything as it goes.
        for (const role of ['editor', 'publisher'] as const) await new AddEditor(role, -1).run(model);
        for (const pick of [0, 1]) await new SignIn(pick).run(model);
        await fc.asyncModelRun(() => ({ model, real: {} }), sequence);
        // At the end, every credential the model holds answers whoami as the model says.
        for (const credential of credentials(model)) {
          const reply = await send('GET', '/api/admin/whoami', credential);
          if (gate(reply, credential, undefined, 'whoami at the end')) assert.equal(reply.body.id, credential.held.account.id);
        }
      }),
      { numRuns: 50 },
    );
    // The shrunk sequence and the assertion it broke (fc.assert would name the sequence alone).
    if (outcome.failed) assert.fail(`${fc.defaultReportMessage(outcome)}\n\n${(outcome.errorInstance as Error)?.message ?? String(outcome.errorInstance)}`);
    const met = Object.fromEntries([...verdicts].sort());
    t.diagnostic(`${requests} requests: ${JSON.stringify(met)}`);
    for (const verdict of [
      'dead bearer refused',
      'dead session refused',
      'editor bearer forbidden',
      'editor session forbidden',
      'editor bearer allowed',
      'publisher bearer allowed a publisher’s call',
      'publisher session allowed a publisher’s call',
    ]) {
      assert.ok((verdicts.get(verdict) ?? 0) >= 5, `"${verdict}" came up ${verdicts.get(verdict) ?? 0} times in ${JSON.stringify(met)}`);
    }
  });
});
