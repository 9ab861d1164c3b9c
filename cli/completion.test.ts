// `vitae completion bash|zsh|fish`: printed by the program (in process), generated from it, and working in the
// shell it is for. All three shells must be installed (.ci/run installs them); a missing one fails, by name.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runVitaeInProcess } from './run-vitae.ts';
import { needTool } from '../testing/system-tools.ts';

const scripts: Record<string, string> = {};
let dir: string;
before(async () => {
  needTool('zsh');
  needTool('fish');
  dir = await mkdtemp(join(tmpdir(), 'vitae-completion-'));
  for (const shell of ['bash', 'zsh', 'fish']) {
    const run = await runVitaeInProcess(['completion', shell]);
    assert.equal(run.code, 0, run.stderr);
    scripts[shell] = run.stdout;
    await writeFile(join(dir, shell), run.stdout);
  }
});
after(() => rm(dir, { recursive: true, force: true }));

const shell = (name: string, script: string) => {
  const run = spawnSync(name, ['-c', script], { encoding: 'utf8', cwd: dir });
  if (run.error && 'code' in run.error && run.error.code === 'ENOENT') assert.fail(`${name} is not installed: apt-get install ${name}, or run bash .ci/run`);
  assert.equal(run.status, 0, run.error?.message ?? run.stderr);
  return run.stdout;
};

describe('vitae completion', () => {
  it('names every command and admin subcommand in each script', () => {
    for (const [name, script] of Object.entries(scripts)) {
      for (const command of [
        'brief',
        'list',
        'get',
        'lenses',
        'search',
        'doc',
        'ask',
        'admin',
        'mcp',
        'completion',
        'schema',
        'ls',
        'validate',
        'put',
        'rm',
        'commit',
        'ai-edit',
        'deploys',
        'promote',
      ]) {
        assert.ok(script.includes(command), `${name}: ${command}`);
      }
    }
  });

  it('refuses an unknown shell with exit 2', async () => {
    const run = await runVitaeInProcess(['completion', 'tcsh']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /Allowed choices are bash, zsh, fish/);
  });

  describe('bash', () => {
    const complete = (...words: string[]) =>
      shell(
        'bash',
        `source ./bash; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _vitae; printf '%s\\n' "\${COMPREPLY[@]}"`,
      )
        .trim()
        .split('\n')
        .filter(Boolean);

    it('completes commands, then subcommands of admin', () => {
      const top = complete('vitae', '');
      for (const command of ['brief', 'list', 'get', 'lenses', 'search', 'doc', 'ask', 'admin', 'mcp', 'completion', 'login', 'logout'])
        assert.ok(top.includes(command), command);
      assert.equal(top.at(-1), 'help');
      assert.ok(!top.some((c) => c.startsWith('__')), 'the hidden __complete is not offered');
      assert.deepEqual(complete('vitae', 'ad'), ['admin']);
      assert.ok(complete('vitae', 'admin', '').includes('promote'));
    });

    it('completes the schema’s enum values for options and positionals', () => {
      assert.deepEqual(complete('vitae', 'list', '--tag', 'd'), ['devrel']);
      assert.deepEqual(complete('vitae', 'get', 'x', '--locale', 'zh'), ['zh', 'zh-hant']);
      assert.deepEqual(complete('vitae', 'doc', ''), ['profile', 'credentials', 'capabilities', 'talks', 'thinking']);
      assert.deepEqual(complete('vitae', '--url', 'http://x', 'admin', 'put', 'a', 'b', '--branch', ''), ['main', 'dev']);
    });

    it('completes the options of the command, and file names for file arguments', () => {
      const options = complete('vitae', 'admin', 'put', '-');
      for (const flag of ['--message', '-m', '--branch', '--sha', '--wait', '--json', '--url']) assert.ok(options.includes(flag), flag);
      assert.deepEqual(complete('vitae', 'admin', 'put', 'content/x.md', 'fi'), ['fish']);
    });
  });

  it('zsh: the script loads and completes commands, choices and files', () => {
    // Stand-ins for the completion builtins, which only exist inside a completion widget.
    const stubs = 'compdef() { : }; _describe() { print -r -- "${(P)4}" }; compadd() { print -r -- "${(P)2}" }; _files() { print FILES }; _message() { : }';
    const complete = (...words: string[]) =>
      shell('zsh', `${stubs}; source ./zsh; words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}; _vitae`);
    assert.match(complete('vitae', ''), /brief:The one-page brief/);
    assert.match(complete('vitae', 'admin', ''), /promote:Merge dev into main/);
    assert.equal(complete('vitae', 'list', '--tag', '').trim(), 'it engineering ai devrel web3 business marketing consulting hospitality community creative');
    assert.match(complete('vitae', 'admin', 'validate', 'x', ''), /FILES/);
  });

  it('fish: the script loads and completes commands, choices and options', () => {
    const complete = (line: string) =>
      shell('fish', `source ./fish; complete -C '${line}'`)
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]);
    assert.ok(complete('vitae ').includes('admin'));
    assert.ok(complete('vitae admin ').includes('deploys'));
    assert.deepEqual(complete('vitae doc ').sort(), ['capabilities', 'credentials', 'profile', 'talks', 'thinking']);
    assert.deepEqual(complete('vitae admin deploys --branch '), ['dev', 'main']);
    assert.ok(complete('vitae admin put x y -').includes('--message'));
  });
});
