// Several editors through real HTTP on a real service: the owner (ADMIN_TOKEN) adds two editors and a publisher;
// every commit is authored by whoever made it (git's author locally, the emulator's stored commit carrying a
// `Co-authored-by:` trailer on GitHub); an editor's commit to main and promote are refused with 403 `forbidden`
// naming the role — over REST, the admin MCP endpoint (the SDK client) and the `vitae` CLI process (exit 5);
// accounts are managed by publishers only, role changes and revocations apply at the next request, sessions end
// with their token; bad input gets the documented codes; the audit trail records each event once, never a token.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { operationNamed } from '../contract/index.ts';
import { dirname } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { exitCodes } from '../contract/errors.ts';
import { TOKENS_MAX } from './editors.server.ts';
import { backends, startServiceOn, type BackendService } from '../../testing/backend-service.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { englishOnlyContent } from '../../testing/content-fixture.ts';
import { contentGit, skillFile } from '../../testing/content-git.ts';
import { addEditor, auditSince, call, expectForbidden, expectStatus, newestAuditId, signIn, type NewEditor } from '../../testing/accounts-http.ts';
import { runVitae } from '../../cli/run-vitae.ts';
import { eventually } from '../../testing/admin-http.ts';

const OWNER = 'editors-owner-token-3f9a1c7e5b2d8046';
const ownerAccount = { id: 'owner', name: 'Owner', email: '', role: 'publisher' };
const skill = (slug: string) => `content/skills/${slug}.md`;
const tokenIdOf = (token: string) => token.split('_')[1]!;

for (const backend of backends) {
  describe(`commits of several editors on ${backend}`, () => {
    let service: BackendService;
    before(async () => {
      service = await startServiceOn(backend, { ADMIN_TOKEN: OWNER, CONTENT_DIR: englishOnlyContent() });
    });
    after(() => service.stop());

    it('authors each commit as whoever made it, and history names them', async () => {
      const base = service.url;
      const ada = await addEditor(base, OWNER, { name: 'Ada Lovelace', email: 'ada@example.org' });
      assert.equal(ada.role, 'editor', 'an editor unless said otherwise');
      const grace = await addEditor(base, OWNER, { name: 'Grace Hopper', email: 'grace@example.org', role: 'editor' });
      const linus = await addEditor(base, OWNER, { name: 'Linus Publisher', email: 'linus@example.org', role: 'publisher' });
      const write = async (token: string, branch: string, slug: string, message: string) =>
        expectStatus(await call(base, 'PUT', '/api/admin/file', { token, body: { path: skill(slug), content: skillFile(slug), message, branch } }), 200).commit
          .sha as string;
      const byAda = await write(ada.token, 'dev', 'ada-engines', 'Ada adds engines');
      const byGrace = await write(grace.token, 'dev', 'grace-compilers', 'Grace adds compilers');
      const byOwner = await write(OWNER, 'dev', 'owner-skill', 'The owner adds a skill');
      const byLinus = await write(linus.token, 'main', 'linus-kernels', 'Linus adds kernels on main');
      const promoted = expectStatus(await call(base, 'POST', '/api/admin/promote', { token: linus.token, body: { message: 'Linus publishes dev' } }), 200);
      assert.deepEqual([promoted.merged, promoted.fastForward], [true, false], 'main moved: a merge commit, which Linus authors');

      const git = contentGit(dirname(service.gitDir));
      const recorded = (sha: string) => {
        const [author, committer, ...message] = git.git(['log', '-1', '--format=%an <%ae>%x1f%cn <%ce>%x1f%B', sha]).split('\x1f');
        return { author: author!, committer: committer!, message: message.join('\x1f').trim() };
      };
      const serviceOwn = recorded(byOwner);
      assert.equal(serviceOwn.message, 'The owner adds a skill', 'the owner’s commits keep the service’s identity, no trailer');
      const stored = async (sha: string) => {
        const res = await fetch(`${service.emulator!.url}/repos/${service.emulator!.repository}/git/commits/${sha}`, {
          headers: { Authorization: `token ${service.emulator!.token}` },
        });
        assert.equal(res.status, 200);
        return (await res.json()) as { message: string; author: { name: string; email: string } };
      };
      const made: Array<[string, NewEditor, string]> = [
        [byAda, ada, 'Ada adds engines'],
        [byGrace, grace, 'Grace adds compilers'],
        [byLinus, linus, 'Linus adds kernels on main'],
        [promoted.commit.sha, linus, 'Linus publishes dev'],
      ];
      for (const [sha, who, message] of made) {
        const mine = recorded(sha);
        assert.equal(mine.committer, serviceOwn.committer, 'the service commits');
        if (backend === 'local') {
          assert.equal(mine.author, `${who.name} <${who.email}>`, message);
          assert.equal(mine.message, message, 'no trailer where git records the author');
        } else {
          const commit = await stored(sha);
          assert.equal(commit.message, `${message}\n\nCo-authored-by: ${who.name} <${who.email}>`);
          assert.equal(`${commit.author.name} <${commit.author.email}>`, serviceOwn.author, 'GitHub’s author stays the token’s user');
        }
      }
      if (backend === 'github') assert.doesNotMatch((await stored(byOwner)).message, /co-authored-by/i);

      const history = expectStatus(await call(base, 'GET', '/api/admin/history?branch=dev&limit=3', { token: grace.token }), 200);
      assert.deepEqual(
        history.commits.map((c: any) => [c.sha, c.author]),
        [
          [byOwner, serviceOwn.author.replace(/ <.*$/, '')],
          [byGrace, 'Grace Hopper'],
          [byAda, 'Ada Lovelace'],
        ],
      );
      const main = expectStatus(await call(base, 'GET', '/api/admin/history?branch=main&limit=1', { token: ada.token }), 200);
      assert.deepEqual([main.commits[0].sha, main.commits[0].author], [promoted.commit.sha, 'Linus Publisher']);

      // Each publish run names who made the commit it publishes (on GitHub, from the pushed commit's Co-authored-by).
      const runBy = (branch: string, sha: string) =>
        eventually(`the run of ${sha.slice(0, 7)} on ${branch}, named`, async () => {
          const { runs } = expectStatus(await call(base, 'GET', `/api/admin/deploys?branch=${branch}&limit=50`, { token: OWNER }), 200);
          const run = runs.find((r: { commit: string; by?: string }) => r.commit === sha);
          return run?.by === undefined ? undefined : (run.by as string);
        });
      assert.equal(await runBy('dev', byGrace), 'Grace Hopper');
      assert.equal(await runBy('main', promoted.commit.sha), 'Linus Publisher');
    });
  });
}

describe('roles, accounts and the audit trail', () => {
  let service: TestService;
  let base: string;
  let ada: NewEditor; // editor
  let grace: NewEditor; // editor
  let linus: NewEditor; // publisher
  /** Every token issued in this suite, none of which the audit trail may hold. */
  const issued: string[] = [OWNER];
  // Each request from an address of its own (TRUST_PROXY): refused tokens must not spend the address's budget.
  let n = 0;
  const nextAddress = () => `10.9.${Math.floor(++n / 250)}.${(n % 250) + 1}`;
  const as = (token: string | undefined, method: string, path: string, body?: unknown, address = nextAddress()) =>
    call(base, method, path, { token, body, address });
  const asCookie = (cookie: string, method: string, path: string, body?: unknown, address = nextAddress()) =>
    call(base, method, path, { cookie, body, address });
  const add = async (input: { name: string; email: string; role?: 'editor' | 'publisher' }, by = OWNER) => {
    const editor = await addEditor(base, by, input, nextAddress());
    issued.push(editor.token);
    return editor;
  };
  const git = () => contentGit(service.dataDir);
  const put = (branch: string | undefined, slug: string) => ({
    path: skill(slug),
    content: skillFile(slug),
    message: `Add ${slug}`,
    ...(branch ? { branch } : {}),
  });
  const whoami = async (credential: { token?: string; cookie?: string }) => call(base, 'GET', '/api/admin/whoami', { ...credential, address: nextAddress() });

  before(async () => {
    service = await startTestService({ ADMIN_TOKEN: OWNER, CONTENT_DIR: englishOnlyContent(), TRUST_PROXY: 'true' });
    base = service.url;
    ada = await add({ name: 'Ada Lovelace', email: 'ada@example.org', role: 'editor' });
    grace = await add({ name: 'Grace Hopper', email: 'grace@example.org', role: 'editor' });
    linus = await add({ name: 'Linus Publisher', email: 'linus@example.org', role: 'publisher' });
  });
  after(() => service.stop());

  it('whoami answers each account, by bearer and by console session', async () => {
    const account = ({ id, name, email, role }: NewEditor) => ({ id, name, email, role });
    assert.deepEqual(expectStatus(await whoami({ token: OWNER }), 200), { authenticated: true, via: 'bearer', ...ownerAccount });
    for (const editor of [ada, grace, linus]) {
      assert.deepEqual(expectStatus(await whoami({ token: editor.token }), 200), { authenticated: true, via: 'bearer', ...account(editor) });
    }
    const cookie = await signIn(base, grace.token, nextAddress());
    assert.deepEqual(expectStatus(await whoami({ cookie }), 200), { authenticated: true, via: 'session', ...account(grace) });
    expectStatus(await whoami({}), 401, 'unauthorized');
    // Each token's last use is noted (kept apart from the record, so noting it never brings back a revoked token).
    const listed = expectStatus(await call(base, 'GET', '/api/admin/editors', { token: OWNER, address: nextAddress() }), 200) as {
      editors: Array<{ id: string; tokens: Array<{ lastUsedAt: string | null }> }>;
    };
    for (const editor of [ada, grace, linus]) {
      const used = listed.editors.find((e) => e.id === editor.id)!.tokens[0]!.lastUsedAt;
      assert.ok(used && Date.now() - Date.parse(used) < 120_000, `${editor.id}'s token was used just now: ${used}`);
    }
  });

  it('refuses an editor’s commit to main and promote with 403 naming the publisher role, and changes nothing', async () => {
    const heads = () => [git().head('main'), git().head('dev')];
    const before = heads();
    for (const [method, path, body] of [
      ['PUT', '/api/admin/file', put('main', 'ada-on-main')],
      ['PUT', '/api/admin/file', put(undefined, 'ada-default-branch')], // a write goes to main unless it says dev
      ['DELETE', '/api/admin/file', { path: skill('python'), message: 'Drop python', branch: 'main' }],
      ['POST', '/api/admin/changes', { changes: [{ path: skill('ada-set'), content: skillFile('Ada set') }], message: 'A set', branch: 'main' }],
      ['POST', '/api/admin/promote', { message: 'Ada publishes' }],
    ] as const) {
      const refused = expectForbidden(await as(ada.token, method, path, body));
      assert.match(refused.message, /Ada Lovelace is an editor/, `${method} ${path}`);
    }
    const cookie = await signIn(base, grace.token, nextAddress());
    assert.match(
      expectForbidden(await asCookie(cookie, 'POST', '/api/admin/promote', {})).message,
      /^Promoting dev to main needs the publisher role; Grace Hopper/,
    );
    assert.match(expectForbidden(await asCookie(cookie, 'PUT', '/api/admin/file', put('main', 'grace-main'))).message, /Commit to dev instead/);
    assert.deepEqual(heads(), before, 'nothing was written');

    expectStatus(await as(ada.token, 'PUT', '/api/admin/file', put('dev', 'ada-on-dev')), 200);
    expectStatus(await asCookie(cookie, 'PUT', '/api/admin/file', put('dev', 'grace-on-dev')), 200);
    expectStatus(await as(linus.token, 'PUT', '/api/admin/file', put('main', 'linus-on-main')), 200);
    const promoted = expectStatus(await as(linus.token, 'POST', '/api/admin/promote', { message: 'Linus publishes' }), 200);
    assert.equal(promoted.merged, true, 'a publisher who is not the owner promotes');
    assert.equal(git().show('main', skill('grace-on-dev')), skillFile('grace-on-dev'));
  });

  it('keeps the accounts and the audit trail to publishers', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/admin/editors', undefined],
      ['POST', '/api/admin/editors', { name: 'Eve', email: 'eve@example.org', role: 'publisher' }],
      ['PATCH', `/api/admin/editors/${ada.id}`, { role: 'publisher' }],
      ['PATCH', `/api/admin/editors/${grace.id}`, { revokeToken: grace.tokens[0]!.id }],
      ['DELETE', `/api/admin/editors/${grace.id}`, undefined],
      ['GET', '/api/admin/audit', undefined],
    ] as const) {
      const refused = expectForbidden(await as(ada.token, method, path, body));
      assert.match(refused.message, /^(Managing editors|Reading the audit trail) needs the publisher role; Ada Lovelace is an editor\.$/);
    }
    const listing = await as(linus.token, 'GET', '/api/admin/editors');
    const { editors } = expectStatus(listing, 200);
    assert.deepEqual(editors[0], { ...ownerAccount, createdAt: null, tokens: [] }, 'the owner first');
    assert.deepEqual(
      editors.slice(1, 4).map((e: any) => [e.id, e.name, e.email, e.role, e.tokens.length]),
      [
        [ada.id, 'Ada Lovelace', 'ada@example.org', 'editor', 1],
        [grace.id, 'Grace Hopper', 'grace@example.org', 'editor', 1],
        [linus.id, 'Linus Publisher', 'linus@example.org', 'publisher', 1],
      ],
      'grace is still there, her token too',
    );
    for (const token of issued) assert.ok(!listing.text.includes(token), 'a listing names token ids, never a token');
    assert.doesNotMatch(listing.text, /digest|hash/);
    expectStatus(await as(linus.token, 'GET', '/api/admin/audit?limit=1'), 200);
  });

  it('applies a role change at the next request, to bearer and session alike', async () => {
    const cookie = await signIn(base, grace.token, nextAddress());
    expectForbidden(await asCookie(cookie, 'GET', '/api/admin/editors'));
    const changed = expectStatus(await as(OWNER, 'PATCH', `/api/admin/editors/${grace.id}`, { role: 'publisher' }), 200);
    assert.equal(changed.role, 'publisher');
    assert.equal(changed.token, undefined, 'no token unless asked for');
    expectStatus(await as(grace.token, 'GET', '/api/admin/editors'), 200);
    expectStatus(await asCookie(cookie, 'GET', '/api/admin/audit?limit=1'), 200);
    assert.equal(expectStatus(await whoami({ cookie }), 200).role, 'publisher');
    // A publisher who is not the owner sets it back.
    expectStatus(await as(linus.token, 'PATCH', `/api/admin/editors/${grace.id}`, { role: 'editor' }), 200);
    expectForbidden(await as(grace.token, 'GET', '/api/admin/editors'));
    expectForbidden(await asCookie(cookie, 'POST', '/api/admin/promote', {}));
    assert.equal(expectStatus(await whoami({ token: grace.token }), 200).role, 'editor');
  });

  it('issues a new token that works; revoking it refuses it and ends the console session opened with it, and no other', async () => {
    const renewed = expectStatus(await as(OWNER, 'PATCH', `/api/admin/editors/${ada.id}`, { newToken: true }), 200);
    issued.push(renewed.token);
    assert.notEqual(renewed.token, ada.token);
    assert.deepEqual(renewed.tokens.map((t: any) => t.id).sort(), [tokenIdOf(ada.token), tokenIdOf(renewed.token)].sort());
    assert.equal(expectStatus(await whoami({ token: renewed.token }), 200).id, ada.id);
    const fresh = await signIn(base, renewed.token, nextAddress());
    const old = await signIn(base, ada.token, nextAddress());
    assert.equal(expectStatus(await whoami({ cookie: fresh }), 200).via, 'session');

    const revoked = expectStatus(await as(OWNER, 'PATCH', `/api/admin/editors/${ada.id}`, { revokeToken: tokenIdOf(renewed.token) }), 200);
    assert.deepEqual(
      revoked.tokens.map((t: any) => t.id),
      [tokenIdOf(ada.token)],
    );
    expectStatus(await whoami({ token: renewed.token }), 401, 'unauthorized');
    expectStatus(await whoami({ cookie: fresh }), 401, 'unauthorized');
    expectStatus(await as(renewed.token, 'PUT', '/api/admin/file', put('dev', 'ada-revoked')), 401, 'unauthorized');
    assert.equal(expectStatus(await whoami({ token: ada.token }), 200).id, ada.id, 'her other token still works');
    assert.equal(expectStatus(await whoami({ cookie: old }), 200).id, ada.id, 'and the session opened with it');
    expectStatus(await as(OWNER, 'PATCH', `/api/admin/editors/${ada.id}`, { revokeToken: tokenIdOf(renewed.token) }), 404, 'not_found');
  });

  it('removes an editor: every token and console session of theirs ends', async () => {
    const temp = await add({ name: 'Temp Editor', email: 'temp@example.org' });
    const second = expectStatus(await as(OWNER, 'PATCH', `/api/admin/editors/${temp.id}`, { newToken: true }), 200).token as string;
    issued.push(second);
    const cookie = await signIn(base, second, nextAddress());
    assert.equal(expectStatus(await whoami({ cookie }), 200).id, temp.id);
    assert.deepEqual(expectStatus(await as(linus.token, 'DELETE', `/api/admin/editors/${temp.id}`), 200), { id: temp.id, removed: true });
    for (const token of [temp.token, second]) {
      expectStatus(await whoami({ token }), 401, 'unauthorized');
      expectStatus(await as(token, 'PUT', '/api/admin/file', put('dev', 'temp-after')), 401, 'unauthorized');
    }
    expectStatus(await whoami({ cookie }), 401, 'unauthorized');
    expectStatus(await call(base, 'POST', '/api/admin/login', { body: { token: second }, address: nextAddress() }), 401, 'unauthorized');
    const { editors } = expectStatus(await as(OWNER, 'GET', '/api/admin/editors'), 200);
    assert.ok(!editors.some((e: any) => e.id === temp.id));
    expectStatus(await as(OWNER, 'DELETE', `/api/admin/editors/${temp.id}`), 404, 'not_found');
    expectStatus(await as(OWNER, 'PATCH', `/api/admin/editors/${temp.id}`, { newToken: true }), 404, 'not_found');
  });

  it('never changes or removes the owner here (400)', async () => {
    for (const [method, body] of [
      ['PATCH', { role: 'editor' }],
      ['PATCH', { newToken: true }],
      ['PATCH', { name: 'Someone Else' }],
      ['DELETE', undefined],
    ] as const) {
      const refused = expectStatus(await as(OWNER, method, '/api/admin/editors/owner', body), 400, 'bad_request');
      assert.deepEqual(
        refused.errors.map((e: any) => e.pointer),
        ['/id'],
      );
      assert.match(refused.message, /ADMIN_TOKEN/);
    }
    expectForbidden(await as(ada.token, 'DELETE', '/api/admin/editors/owner'));
    assert.deepEqual(expectStatus(await whoami({ token: OWNER }), 200), { authenticated: true, via: 'bearer', ...ownerAccount });
  });

  it('counts the model-backed edits per account as well as per address: a new address buys no new budget', async () => {
    // No model is configured, so each AI edit is refused with 503 once it has spent its point; the budget is the contract's.
    const { points } = operationNamed('admin_ai_edit').rateLimit!;
    const edit = () =>
      call(base, 'POST', '/api/admin/ai-edit', { token: grace.token, address: nextAddress(), body: { path: 'content/brief.md', instruction: 'Shorter.' } });
    for (let i = 0; i < points; i++) expectStatus(await edit(), 503, 'chat_not_configured');
    const refused = await edit();
    expectStatus(refused, 429, 'rate_limited');
    assert.match(refused.body.message, /per account/);
    // Another account from the same addresses still has its own budget.
    expectStatus(
      await call(base, 'POST', '/api/admin/ai-edit', { token: linus.token, address: nextAddress(), body: { path: 'content/brief.md', instruction: 'x' } }),
      503,
    );
  });

  it('answers bad input with the documented codes', async () => {
    const pointers = (reply: Awaited<ReturnType<typeof as>>) => expectStatus(reply, 400, 'bad_request').errors.map((e: any) => e.pointer);
    assert.deepEqual(pointers(await as(OWNER, 'POST', '/api/admin/editors', { name: 'X', email: 'not-an-email' })), ['/email']);
    assert.deepEqual(pointers(await as(OWNER, 'POST', '/api/admin/editors', { name: 'X' })), ['/email']);
    assert.deepEqual(pointers(await as(OWNER, 'POST', '/api/admin/editors', { name: 'Eve <eve@x.org>', email: 'eve@example.org' })), ['/name']);
    assert.deepEqual(pointers(await as(OWNER, 'POST', '/api/admin/editors', { name: ' ', email: 'eve@example.org' })), ['/name']);
    assert.deepEqual(pointers(await as(OWNER, 'POST', '/api/admin/editors', { name: 'Eve', email: 'eve@example.org', role: 'owner' })), ['/role']);
    assert.deepEqual(pointers(await as(OWNER, 'PATCH', `/api/admin/editors/${grace.id}`, { email: 'grace@' })), ['/email']);
    assert.deepEqual(pointers(await as(OWNER, 'PATCH', `/api/admin/editors/${grace.id}`, { revokeToken: 'short' })), ['/revokeToken']);
    assert.deepEqual(pointers(await as(OWNER, 'PATCH', `/api/admin/editors/${grace.id}`, { role: 'admin' })), ['/role']);
    expectStatus(await as(OWNER, 'PATCH', `/api/admin/editors/${grace.id}`, { revokeToken: 'zzzzzzzz' }), 404, 'not_found');
    for (const method of ['PATCH', 'DELETE']) {
      assert.match(
        expectStatus(await as(OWNER, method, '/api/admin/editors/nobody-here', method === 'PATCH' ? {} : undefined), 404, 'not_found').message,
        /nobody-here/,
      );
      // A path segment that is not an id addresses nothing (404), as every REST path of the list does.
      for (const id of ['Not%20An%20Id', '..%2Fowner', '-leading'])
        expectStatus(await as(OWNER, method, `/api/admin/editors/${id}`, method === 'PATCH' ? {} : undefined), 404, 'not_found');
    }
    for (const query of ['limit=0', 'limit=201', 'cursor=abc', 'cursor=-1'])
      expectStatus(await as(OWNER, 'GET', `/api/admin/audit?${query}`), 400, 'bad_request');

    const many = await add({ name: 'Many Tokens', email: 'many@example.org' });
    for (let i = 1; i < TOKENS_MAX; i++) issued.push(expectStatus(await as(OWNER, 'PATCH', `/api/admin/editors/${many.id}`, { newToken: true }), 200).token);
    assert.deepEqual(pointers(await as(OWNER, 'PATCH', `/api/admin/editors/${many.id}`, { newToken: true })), ['/newToken']);
    // Ids are made from names, never the owner's, never twice.
    const owner = await add({ name: 'Owner', email: 'not-the-owner@example.org' });
    const again = await add({ name: 'Ada Lovelace', email: 'ada.two@example.org' });
    assert.deepEqual([owner.id, again.id], ['owner-2', 'ada-lovelace-2']);
  });

  it('offers the same rules on the admin MCP endpoint (SDK client)', async () => {
    const connect = async (token: string) => {
      const client = new Client({ name: 'editors-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/admin`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      return client;
    };
    const refusal = (result: Awaited<ReturnType<Client['callTool']>>) => {
      assert.equal(result.isError, true, JSON.stringify(result.content));
      return JSON.parse((result.content as any)[0].text);
    };
    const client = await connect(ada.token);
    try {
      const me = await client.callTool({ name: 'whoami', arguments: {} });
      assert.deepEqual(me.structuredContent, { authenticated: true, via: 'bearer', id: ada.id, name: ada.name, email: ada.email, role: 'editor' });
      for (const [name, args] of [
        ['admin_promote', { message: 'Ada publishes' }],
        ['admin_write_file', put('main', 'ada-mcp-main')],
        ['admin_list_editors', {}],
        ['admin_add_editor', { name: 'Eve', email: 'eve@example.org' }],
        ['admin_audit', {}],
      ] as const) {
        const body = refusal(await client.callTool({ name, arguments: args }));
        assert.equal(body.code, 'forbidden', name);
        assert.equal(body.role, 'publisher', name);
        assert.match(body.message, /needs the publisher role; Ada Lovelace is an editor/, name);
      }
      // An id no account could have addresses nothing, as PATCH /api/admin/editors/{id} says (404); a wrong type is refused.
      assert.equal(refusal(await client.callTool({ name: 'admin_update_editor', arguments: { id: 'Not An Id' } })).code, 'not_found');
      assert.equal(refusal(await client.callTool({ name: 'admin_update_editor', arguments: { id: 7 } })).code, 'bad_request');
      const onDev = await client.callTool({ name: 'admin_write_file', arguments: put('dev', 'ada-mcp-dev') });
      assert.notEqual(onDev.isError, true, JSON.stringify(onDev.content));
      assert.equal(git().git(['log', '-1', '--format=%an <%ae>', 'dev']), 'Ada Lovelace <ada@example.org>');
    } finally {
      await client.close();
    }
    const publisher = await connect(linus.token);
    try {
      const listed = await publisher.callTool({ name: 'admin_list_editors', arguments: {} });
      assert.ok((listed.structuredContent as any).editors.some((e: any) => e.id === ada.id));
    } finally {
      await publisher.close();
    }
    const temp = await add({ name: 'Mcp Temp', email: 'mcp-temp@example.org' });
    expectStatus(await as(OWNER, 'DELETE', `/api/admin/editors/${temp.id}`), 200);
    await assert.rejects(connect(temp.token), /401|nauthorized/, 'a removed editor’s token opens no MCP session');
  });

  it('refuses an editor’s promote through the vitae CLI process with exit code 5, after `vitae login` with their token', async () => {
    const login = await runVitae(['login', '--token-stdin', '--url', base], { input: `${ada.token}\n` });
    assert.equal(login.code, 0, login.stderr);
    assert.match(login.stderr, /Logged in to .* as Ada Lovelace \(editor\)/);
    const who = await runVitae(['admin', 'whoami', '--json', '--url', base]);
    assert.equal(who.code, 0, who.stderr);
    assert.equal(JSON.parse(who.stdout).id, ada.id);
    const promote = await runVitae(['admin', 'promote', '-y', '-m', 'Ada tries', '--url', base]);
    assert.equal(promote.code, exitCodes.forbidden, `${promote.stdout}\n${promote.stderr}`);
    assert.equal(exitCodes.forbidden, 5);
    assert.match(promote.stderr, /Promoting dev to main needs the publisher role; Ada Lovelace is an editor\./);
    const editors = await runVitae(['admin', 'editors', '--url', base]);
    assert.equal(editors.code, exitCodes.forbidden, editors.stderr);
    assert.match(editors.stderr, /Managing editors needs the publisher role/);
  });

  it('records each event once in the audit trail, newest first, a page at a time, and never a token', async () => {
    const mark = await newestAuditId(base, OWNER);
    const at: Record<string, string> = {};
    const from = (step: string) => (at[step] = nextAddress());
    expectStatus(await call(base, 'POST', '/api/admin/login', { body: { token: 'vitae_nobody00_not-a-token-at-all' }, address: from('failed') }), 401);
    const editor = await addEditor(base, OWNER, { name: 'Audit Editor', email: 'audit@example.org' }, from('added'));
    issued.push(editor.token);
    const cookie = await signIn(base, editor.token, from('signin'));
    issued.push(cookie.split('=')[1]!.split('.')[0]!);
    const commit = expectStatus(await asCookie(cookie, 'PUT', '/api/admin/file', put('dev', 'audit-notes'), from('commit')), 200);
    expectForbidden(await asCookie(cookie, 'POST', '/api/admin/promote', {})); // refused: no event
    assert.equal(expectStatus(await asCookie(cookie, 'PUT', '/api/admin/file', put('dev', 'audit-notes')), 200).changed, false, 'no change: no event');
    const promoted = expectStatus(await as(OWNER, 'POST', '/api/admin/promote', { message: 'Publish the audit notes' }, from('promote')), 200);
    assert.equal(promoted.merged, true);
    expectStatus(await as(OWNER, 'PATCH', `/api/admin/editors/${editor.id}`, { role: 'publisher' }, from('updated')), 200);
    const second = expectStatus(await as(OWNER, 'PATCH', `/api/admin/editors/${editor.id}`, { newToken: true }, from('issued')), 200).token;
    issued.push(second);
    expectStatus(await as(OWNER, 'PATCH', `/api/admin/editors/${editor.id}`, { revokeToken: tokenIdOf(second) }, from('revoked')), 200);
    expectStatus(await as(second, 'GET', '/api/admin/whoami', undefined, from('refused')), 401);
    expectStatus(await call(base, 'POST', '/api/admin/logout', { cookie, address: from('signout') }), 204);
    expectStatus(await as(OWNER, 'DELETE', `/api/admin/editors/${editor.id}`, undefined, from('removed')), 200);

    const events = await auditSince(base, OWNER, mark, 3);
    const me = { id: editor.id, name: 'Audit Editor' };
    const owner = { id: 'owner', name: 'Owner' };
    const expected: Array<[action: string, actor: object | null, step: string, detail: RegExp]> = [
      ['sign-in-failed', null, 'failed', /^the console\b.*site/],
      ['editor-added', owner, 'added', /^Audit Editor <audit@example\.org> \(audit-editor\) as editor$/],
      ['sign-in', me, 'signin', /^the console\b.*site/],
      ['commit', me, 'commit', new RegExp(`^dev ${commit.commit.sha.slice(0, 7)} "Add audit-notes": content/skills/audit-notes\\.md$`)],
      ['promote', owner, 'promote', new RegExp(`^main ${promoted.commit.sha.slice(0, 7)}`)],
      ['editor-updated', owner, 'updated', /^audit-editor: role publisher$/],
      ['token-issued', owner, 'issued', /^audit-editor: a new token$/],
      ['token-revoked', owner, 'revoked', new RegExp(`^audit-editor: token ${tokenIdOf(second)} revoked$`)],
      ['sign-in-failed', null, 'refused', /bearer/],
      ['sign-out', { ...me }, 'signout', /^the console\b.*site/],
      ['editor-removed', owner, 'removed', /^audit-editor$/],
    ];
    assert.deepEqual(
      events.map((e) => [e.action, e.actor, e.ip]),
      expected.map(([action, actor, step]) => [action, actor, at[step]]).reverse(),
      'each event once, newest first, with who and from where',
    );
    events.reverse().forEach((event, i) => assert.match(event.detail, expected[i]![3], event.action));

    // The whole trail, a page at a time: every id once, and not a token, a session id nor a digest anywhere in it.
    const whole = await auditSince(base, OWNER, 0, 7);
    assert.equal(whole.length, Number(whole[0]!.id));
    assert.deepEqual(await auditSince(base, OWNER, 0, 200), whole, 'pages of 7 and one page agree');
    const text = JSON.stringify(whole);
    for (const secret of issued) assert.ok(!text.includes(secret), `the trail holds ${secret.slice(0, 12)}…`);
    assert.doesNotMatch(text, /vitae_[a-z0-9]{8}_|[0-9a-f]{64}/);
  });
});
