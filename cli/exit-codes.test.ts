// One documented exit code per error class, each reached through the program (in process), with a message
// a person can act on and no stack trace; and through the real `vitae` process, that the code is its exit status.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { exitCodes } from '../operations/contract/errors.ts';
import { englishOnlyContent } from '../testing/content-fixture.ts';
import { startTestService, type TestService } from '../testing/service.ts';
import { runVitae, runVitaeInProcess, unusedPort } from './run-vitae.ts';

const TOKEN = 'cli-exit-codes-token-0123456789';
let service: TestService;
before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN, CONTENT_DIR: englishOnlyContent() });
});
after(() => service.stop());

const vitae = (args: string[], env: Record<string, string> = {}, input?: string) => runVitaeInProcess(args, { env: { SITE_URL: service.url, ...env }, input });
const admin = (args: string[], input?: string) => vitae(['admin', ...args], { SITE_ADMIN_TOKEN: TOKEN }, input);
const ENTRY = 'content/corpus/projects/concierge-copilot.md';

function assertOneCleanFailure(run: { code: number | null; stderr: string }, code: number, message: RegExp) {
  assert.equal(run.code, code, run.stderr);
  assert.match(run.stderr, message);
  assert.doesNotMatch(run.stderr, /\n\s+at .+:\d+:\d+/, 'no stack trace');
}

describe('exit codes', () => {
  describe(`${exitCodes.usage}: usage`, () => {
    it('names the allowed values of an unknown enum option before any request', async () => {
      const run = await vitae(['list', '--tag', 'cooking'], { SITE_URL: `http://127.0.0.1:${await unusedPort()}` });
      assertOneCleanFailure(run, 2, /--tag must be one of: it, engineering, ai/);
      assert.equal(run.stderr.trim().split('\n').length, 1);
    });

    it('parses input with the operation’s schema and names the flag or argument', async () => {
      assertOneCleanFailure(await vitae(['search', 'x', '--limit', '99']), 2, /vitae search: --limit must be at most 50/);
      assertOneCleanFailure(await vitae(['search', '  ']), 2, /vitae search: <query> must not be empty/);
      assertOneCleanFailure(await admin(['put', ENTRY, '-'], 'x'), 2, /vitae admin put: --message is required/);
    });

    it('labels number options by their type and says a bad value must be a whole number in the schema’s range', async () => {
      const help = await vitae(['list', '--help']);
      assert.match(help.stdout, /--limit <n> /);
      assert.doesNotMatch(help.stdout, /--limit <json>/);
      assertOneCleanFailure(await vitae(['list', '--limit', 'abc']), 2, /^error: vitae list: --limit must be a whole number from 1 to 500$/m);
      assertOneCleanFailure(await vitae(['search', 'x', '--limit', '2.5']), 2, /vitae search: --limit must be a whole number from 1 to 50$/m);
      assertOneCleanFailure(await admin(['deploys', '--limit', 'lots']), 2, /vitae admin deploys: --limit must be a whole number from 1 to 100$/m);
      for (const run of [await vitae(['list', '--limit', 'abc']), await admin(['deploys', '--limit', 'lots'])]) assert.doesNotMatch(run.stderr, /JSON/);
      assert.match((await vitae(['ask', '--help'])).stdout, /--history <json>/, 'a list or object is still given as JSON');
    });

    it('refuses unknown commands, missing arguments and a malformed --url', async () => {
      assertOneCleanFailure(await vitae(['lisst']), 2, /unknown command 'lisst'[\s\S]*Did you mean list\?/);
      assertOneCleanFailure(await vitae(['get']), 2, /missing required argument 'slug'/);
      assertOneCleanFailure(await vitae(['brief', '--url', 'localhost:3000']), 2, /--url "localhost:3000"|--url must be an http or https URL/);
    });

    it('refuses a changes file that is not JSON, naming it', async () => {
      assertOneCleanFailure(await admin(['commit', '-', '-m', 'x'], '{nope'), 2, /standard input is not JSON/);
      assertOneCleanFailure(await admin(['put', ENTRY, '/no/such/file.md', '-m', 'x']), 2, /cannot read \/no\/such\/file\.md: no such file/);
    });
  });

  it(`${exitCodes.not_found}: not found, the hint naming the command to run rather than a REST route`, async () => {
    const entry = await vitae(['get', 'no-such-entry']);
    assertOneCleanFailure(entry, 3, /No entry with slug "no-such-entry"\. List the slugs with `vitae list`\./);
    assert.doesNotMatch(entry.stderr, /\/api\//);
    const json = await vitae(['get', 'no-such-entry', '--json']);
    assert.deepEqual(JSON.parse(json.stdout), { code: 'not_found', message: 'No entry with slug "no-such-entry". List the slugs with `vitae list`.' });
    assert.equal(json.stderr, '', '--json: the one JSON body, in the words of the command line, and nothing beside it');
    assertOneCleanFailure(await admin(['get', 'content/corpus/projects/no-such.md']), 3, /no-such\.md/);
    const slug = await admin(['get', 'no-such-slug']);
    assertOneCleanFailure(slug, 3, /List files with `vitae admin ls`\./);
    assert.doesNotMatch(slug.stderr, /\/api\//);
  });

  it(`${exitCodes.not_found}: an argument that addresses nothing is not found before any request, in the service’s words`, async () => {
    const offline = { SITE_URL: `http://127.0.0.1:${await unusedPort()}` };
    const doc = await vitae(['doc', 'diary'], offline);
    assertOneCleanFailure(doc, 3, /^No document with name "diary": name must be one of: profile, credentials, capabilities, talks, thinking\.$/m);
    const slug = await vitae(['get', 'Not_A_Slug'], offline);
    assertOneCleanFailure(slug, 3, /^No entry with slug "Not_A_Slug": slug: a slug is lowercase letters/);
    // The same words as the REST API's 404 for the same mistake.
    const rest = (await (await service.get('/api/v1/documents/diary')).json()) as { code: string; message: string };
    assert.deepEqual(JSON.parse((await vitae(['doc', 'diary', '--json'], offline)).stdout), rest);
    const lens = (await (await service.get('/api/v1/lenses/astronaut')).json()) as { code: string; message: string };
    assert.deepEqual(JSON.parse((await vitae(['lens', 'astronaut', '--json'], offline)).stdout), lens);
    // A malformed option is still a usage error.
    assertOneCleanFailure(await vitae(['doc', 'profile', '--locale', 'de'], offline), 2, /--locale must be one of/);
  });

  describe(`${exitCodes.auth}: auth`, () => {
    it('says how to set SITE_ADMIN_TOKEN when it is missing, without a request', async () => {
      const run = await runVitaeInProcess(['admin', 'ls'], { env: { SITE_URL: `http://127.0.0.1:${await unusedPort()}` } });
      assertOneCleanFailure(run, 4, /SITE_ADMIN_TOKEN/);
      assert.match(run.stderr, /prints the admin token/);
      assert.match(run.stderr, /\.data\/secrets\/admin-token/);
    });

    it('says the token was refused when it is wrong', async () => {
      assertOneCleanFailure(await vitae(['admin', 'ls'], { SITE_ADMIN_TOKEN: 'wrong-token' }), 4, /refused the admin token in SITE_ADMIN_TOKEN/);
    });
  });

  it(`${exitCodes.forbidden}: forbidden path`, async () => {
    assertOneCleanFailure(await admin(['put', 'server.ts', '-', '-m', 'no', '--yes'], 'x'), 5, /not a writable content file/);
    // A read is refused as a read, with the path it probably meant.
    const read = await admin(['get', 'site.json']);
    assertOneCleanFailure(read, 5, /"site\.json" is not a content file: .*content\/site\.json/);
    assert.doesNotMatch(read.stderr, /writable/);
  });

  it(`${exitCodes.invalid}: invalid content, each problem as path:line: message`, async () => {
    const source = JSON.parse((await admin(['get', ENTRY, '--json'])).stdout).content as string;
    const broken = source.replace(/^start: .*$/m, 'start: "2025-13"');
    const run = await admin(['put', ENTRY, '-', '-m', 'break it', '--yes'], broken);
    assertOneCleanFailure(run, 6, new RegExp(`^${ENTRY.replace(/\./g, '\\.')}:\\d+: start `, 'm'));
    const json = await vitae(['admin', 'put', ENTRY, '-', '-m', 'break it', '--json', '--yes'], { SITE_ADMIN_TOKEN: TOKEN }, broken);
    assert.equal(json.code, 6);
    assert.equal(JSON.parse(json.stdout).code, 'invalid', '--json prints the error body');
  });

  it(`${exitCodes.conflict}: conflict, explaining how to re-read and retry`, async () => {
    const { content, sha } = JSON.parse((await admin(['get', ENTRY, '--json'])).stdout) as { content: string; sha: string };
    const first = await admin(['put', ENTRY, '-', '-m', 'first edit', '--sha', sha, '--yes'], content.replace('Orbitale Travel', 'Orbitale Travel SA'));
    assert.equal(first.code, 0, first.stderr);
    const stale = await admin(['put', ENTRY, '-', '-m', 'second edit', '--sha', sha, '--yes'], content + '\nMore.\n');
    assertOneCleanFailure(stale, 7, /^Conflict: /);
    assert.ok(stale.stderr.includes(`vitae admin get ${ENTRY}`), stale.stderr);
    // The sha to retry with is printed in full, as --sha takes it (40 hexadecimal characters).
    const now = JSON.parse((await admin(['get', ENTRY, '--json'])).stdout).sha as string;
    assert.ok(stale.stderr.includes(`retry with --sha ${now}`), stale.stderr);
  });

  it(`${exitCodes.unavailable}: a service without a model says what to configure`, async () => {
    assertOneCleanFailure(await vitae(['ask', 'Where is Noa based?']), 9, /OPENAI_API_KEY/);
  });

  it(`${exitCodes.unavailable}: network failure names the URL and the variable, in one line`, async () => {
    const url = `http://127.0.0.1:${await unusedPort()}`;
    const run = await runVitaeInProcess(['lenses'], { env: { SITE_URL: url } });
    assertOneCleanFailure(run, 9, new RegExp(`Cannot reach the Vitae service at ${url.replace(/\./g, '\\.')} \\(ECONNREFUSED\\)`));
    assert.match(run.stderr, /--url or SITE_URL/);
    assert.equal(run.stderr.trim().split('\n').length, 1);
  });
});

describe('--json: every failure prints an error body on stdout, with the same exit code', () => {
  const errorBody = (run: { code: number | null; stdout: string; stderr: string }, code: number) => {
    assert.equal(run.code, code, run.stderr);
    const body = JSON.parse(run.stdout) as { code: string; message: string; errors?: Array<{ message: string }> };
    assert.equal(typeof body.message, 'string');
    return body;
  };

  it('the service’s error (not found) and input the CLI refuses itself have the same shape', async () => {
    const fromService = errorBody(await vitae(['get', 'no-such-entry', '--json']), 3);
    assert.equal(fromService.code, 'not_found');
    const kind = errorBody(await vitae(['list', '--kind', 'foo', '--json']), 2);
    assert.equal(kind.code, 'bad_request');
    assert.match(kind.message, /--kind must be one of: experience, education, community, project/);
    assert.deepEqual(
      kind.errors?.map((e) => e.message),
      ['--kind must be one of: experience, education, community, project'],
    );
    assert.match(errorBody(await vitae(['list', '--limit', 'abc', '--json']), 2).message, /--limit must be a whole number from 1 to 500/);
    assert.match(errorBody(await vitae(['lisst', '--json']), 2).message, /unknown command 'lisst'/);
    const missing = await vitae(['get', '--json']);
    assert.match(errorBody(missing, 2).message, /missing required argument 'slug'/);
    assert.equal(missing.stderr, '', 'commander’s own line is not printed beside the body');
    assert.equal((await vitae(['list', '--kind', 'foo'])).stdout, '', 'without --json, nothing on stdout');
  });

  it('no token, no terminal to confirm on, and an unreachable service', async () => {
    const token = errorBody(await runVitaeInProcess(['admin', 'ls', '--json'], { env: { SITE_URL: service.url } }), 4);
    assert.equal(token.code, 'unauthorized');
    assert.match(token.message, /SITE_ADMIN_TOKEN/);
    const unconfirmed = errorBody(await admin(['rm', 'content/skills/typescript.md', '-m', 'x', '--json']), 2);
    assert.match(unconfirmed.message, /Add --yes/);
    const url = `http://127.0.0.1:${await unusedPort()}`;
    assert.equal(errorBody(await runVitaeInProcess(['lenses', '--json'], { env: { SITE_URL: url } }), 9).code, 'unavailable');
  });
});

describe('the real bin', () => {
  it('exits with the code, so a shell script can test $?, and prints the one clean line', async () => {
    assertOneCleanFailure(
      await runVitae(['doc', 'diary'], { env: { SITE_URL: service.url } }),
      3,
      /^No document with name "diary": name must be one of: profile, credentials/,
    );
    assertOneCleanFailure(await runVitae(['get', 'no-such-entry'], { env: { SITE_URL: service.url } }), 3, /No entry with slug "no-such-entry"/);
    const json = await runVitae(['list', '--kind', 'foo', '--json'], { env: { SITE_URL: service.url } });
    assert.equal(json.code, 2, json.stderr);
    assert.equal(JSON.parse(json.stdout).code, 'bad_request');
    assert.equal(json.stderr, '', 'with --json the body alone');
    const missing = await runVitae(['get', 'no-such-entry', '--json'], { env: { SITE_URL: service.url } });
    assert.equal(missing.code, 3);
    assert.equal(JSON.parse(missing.stdout).message, 'No entry with slug "no-such-entry". List the slugs with `vitae list`.');
    assert.equal(missing.stderr, '');
  });
});
