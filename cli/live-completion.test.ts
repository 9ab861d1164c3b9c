// Completion of values only the live service knows: the bash, zsh and fish scripts call the real `vitae` (on
// PATH, as installed) for entry slugs, lens ids and content paths at the positional that takes them, with
// the --url of the command line; the answers are cached for a minute in XDG_CACHE_HOME.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestService, type TestService } from '../testing/service.ts';
import { cleanEnv, runVitae, runVitaeInProcess, VITAE_BIN } from './run-vitae.ts';
import { needTool } from '../testing/system-tools.ts';

const TOKEN = 'cli-live-completion-token-0123456789';
let service: TestService;
let dir: string;
before(async () => {
  needTool('zsh');
  needTool('fish');
  service = await startTestService({ ADMIN_TOKEN: TOKEN });
  dir = await mkdtemp(join(tmpdir(), 'vitae-live-completion-'));
  await mkdir(join(dir, 'bin'));
  await symlink(VITAE_BIN, join(dir, 'bin', 'vitae'));
  for (const shell of ['bash', 'zsh', 'fish']) {
    const run = await runVitaeInProcess(['completion', shell]);
    assert.equal(run.code, 0, run.stderr);
    await writeFile(join(dir, shell), run.stdout);
  }
});
after(async () => {
  await service.stop();
  await rm(dir, { recursive: true, force: true });
});

const cache = () => join(dir, 'cache');
/** The shell's environment: `vitae` on PATH, the cache in the test's folder, and whatever the case adds. */
const shellEnv = (extra: Record<string, string> = {}) => cleanEnv({ PATH: `${join(dir, 'bin')}:${process.env.PATH}`, XDG_CACHE_HOME: cache(), ...extra });

/** Runs a shell without blocking this process, which serves the requests `vitae` makes. */
async function shell(name: string, script: string, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(name, ['-c', script], { cwd: dir, env, encoding: 'utf8' });
    return stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') assert.fail(`${name} is not installed: apt-get install ${name}, or run bash .ci/run`);
    throw error;
  }
}

const bash = async (words: string[], env: NodeJS.ProcessEnv) =>
  (
    await shell(
      'bash',
      `source ./bash; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _vitae; printf '%s\\n' "\${COMPREPLY[@]}"`,
      env,
    )
  )
    .split('\n')
    .filter(Boolean);

describe('completion of live values', () => {
  it('vitae __complete prints the live slugs, lens ids and (with the token) content paths', async () => {
    const slugs = await runVitae(['__complete', 'slugs'], { env: { SITE_URL: service.url, XDG_CACHE_HOME: join(dir, 'direct-cache') } });
    assert.equal(slugs.code, 0, slugs.stderr);
    assert.ok(slugs.stdout.split('\n').includes('concierge-copilot'), slugs.stdout);
    const lenses = await runVitaeInProcess(['__complete', 'lenses'], { env: { SITE_URL: service.url } });
    assert.ok(lenses.stdout.split('\n').includes('head-of-ai'), lenses.stdout);
    const paths = await runVitaeInProcess(['__complete', 'paths'], { env: { SITE_URL: service.url, SITE_ADMIN_TOKEN: TOKEN } });
    assert.ok(paths.stdout.split('\n').includes('content/corpus/projects/concierge-copilot.md'), paths.stdout);
    const unreachable = await runVitaeInProcess(['__complete', 'slugs'], { env: { SITE_URL: 'http://127.0.0.1:9' } });
    assert.deepEqual([unreachable.code, unreachable.stdout, unreachable.stderr], [0, '', ''], 'no service: no values, no noise');
  });

  it('bash: slugs for `get`, paths and slugs for `admin edit`, paths for `admin rm`, with --url from the line', async () => {
    const env = shellEnv({ SITE_URL: service.url, SITE_ADMIN_TOKEN: TOKEN });
    assert.ok((await bash(['vitae', 'get', ''], env)).includes('concierge-copilot'));
    assert.deepEqual(await bash(['vitae', 'get', 'concierge-c'], env), ['concierge-copilot']);
    const edit = await bash(['vitae', 'admin', 'edit', ''], env);
    for (const value of ['concierge-copilot', 'head-of-ai', 'typescript', 'content/site.json']) assert.ok(edit.includes(value), value);
    assert.ok((await bash(['vitae', 'admin', 'rm', 'content/skills/'], env)).includes('content/skills/typescript.md'));
    assert.deepEqual(await bash(['vitae', 'admin', 'rm', 'content/skills/typescript.md', ''], env), [], 'nothing live after the last positional');
    const noSiteUrl = shellEnv({ SITE_ADMIN_TOKEN: TOKEN });
    assert.ok((await bash(['vitae', '--url', service.url, 'get', ''], noSiteUrl)).includes('concierge-copilot'), '--url before the command');
    assert.ok((await bash(['vitae', 'get', '--url', service.url, ''], noSiteUrl)).includes('concierge-copilot'), '--url after it');
  });

  it('keeps the answers for a minute in XDG_CACHE_HOME and serves the next completion from there', async () => {
    const env = shellEnv({ SITE_URL: service.url });
    await bash(['vitae', 'get', ''], env);
    const files = (await readdir(join(cache(), 'vitae'))).filter((f) => f.startsWith('completion-'));
    assert.equal(files.length, 1, files.join());
    const file = join(cache(), 'vitae', files[0]!);
    const cached = JSON.parse(await readFile(file, 'utf8'));
    assert.equal(cached.url, service.url);
    assert.ok(cached.groups.entries.values.includes('concierge-copilot'));
    // A value only the cache has: the next completion shows it, so no request was made.
    cached.groups.entries.values.push('only-in-the-cache');
    await writeFile(file, JSON.stringify(cached));
    assert.ok((await bash(['vitae', 'get', 'only'], env)).includes('only-in-the-cache'));
    // An answer older than a minute is fetched again.
    cached.groups.entries.at = Date.now() - 61_000;
    await writeFile(file, JSON.stringify(cached));
    assert.deepEqual(await bash(['vitae', 'get', 'only'], env), []);
  });

  it('zsh and fish: live slugs at the positional too', async () => {
    const env = shellEnv({ SITE_URL: service.url });
    const stubs = 'compdef() { : }; _describe() { : }; compadd() { print -rl -- "${(@P)2}" }; _files() { : }; _message() { : }';
    const zsh = await shell('zsh', `${stubs}; source ./zsh; words=(vitae get ''); CURRENT=3; _vitae`, env);
    assert.ok(zsh.split('\n').includes('concierge-copilot'), zsh);
    const fish = await shell('fish', `source ./fish; complete -C 'vitae get '`, env);
    assert.ok(
      fish.split('\n').some((line) => line.split('\t')[0] === 'concierge-copilot'),
      fish,
    );
  });
});
