// The public commands through the program (in process, output captured as a pipe) against a real service:
// `--json` is the API body exactly, the human format is readable and plain when piped.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { operations } from '../operations/contract/index.ts';
import { startTestService, type TestService } from '../testing/service.ts';
import { runVitae, runVitaeInProcess } from './run-vitae.ts';

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(() => service.stop());

const vitae = (args: string[], env: Record<string, string> = {}) => runVitaeInProcess(args, { env: { SITE_URL: service.url, ...env } });
const api = async (path: string) => {
  const res = await service.get(path, { headers: { Accept: 'application/json' } });
  assert.equal(res.status, 200, path);
  return res.json();
};

/** One call per public read operation: the command, the same request over REST, and what a person should see. */
const cases: Record<string, { args: string[]; rest: string; human: RegExp[] }> = {
  get_brief: { args: ['brief', '--locale', 'fr'], rest: '/api/v1/brief?locale=fr', human: [/^## /m, /Noa Castellan/] },
  list_experience: {
    args: ['list', '--tag', 'ai', '--kind', 'project', '--locale', 'ja'],
    rest: '/api/v1/entries?tag=ai&kind=project&locale=ja',
    human: [/^SLUG\s+KIND\s+PERIOD\s+TITLE$/m, /^concierge-copilot\s+プロジェクト\s+2025年3月/m],
  },
  get_entry: {
    args: ['get', 'concierge-copilot', '--locale', 'es'],
    rest: '/api/v1/entries/concierge-copilot?locale=es',
    // the headings in the locale asked for, as the site's page shows them
    human: [/^# Concierge Copilot/m, /^## Descripción$/m, /^## Logros$/m, /^- /m, /^http:\/\/vitae\.test\/(es\/)?entries\/concierge-copilot$/m],
  },
  list_lenses: { args: ['lenses'], rest: '/api/v1/lenses', human: [/^LENS\s+TITLE\s+EVIDENCE\s+GAPS\s+PITCH$/m, /^head-of-ai\s+Head of AI\s+\d+\s+\d+/m] },
  get_lens: {
    args: ['lens', 'head-of-ai', '--locale', 'ja'],
    rest: '/api/v1/lenses/head-of-ai?locale=ja',
    human: [/^# \S/m, /^- /m, /^http:\/\/vitae\.test\/(ja\/)?lenses\/head-of-ai$/m],
  },
  search_subject: {
    args: ['search', 'hotel guests', '--limit', '3'],
    rest: '/api/v1/search?q=hotel+guests&limit=3',
    human: [/^SCORE\s+SLUG\s+KIND\s+PASSAGE$/m, /^\s*\d+\.\d\d\s+\S+\s+(entry|document)\s+\S/m],
  },
  get_document: { args: ['doc', 'thinking', '--locale', 'zh'], rest: '/api/v1/documents/thinking?locale=zh', human: [/^# /m] },
  // No human formatter for the Site shape yet: the CLI prints its JSON.
  get_site: {
    args: ['site', '--locale', 'ja'],
    rest: '/api/v1/site?locale=ja',
    human: [/^Noa Castellan\s+http/m, /Lisbon, Portugal \(PT\)$/m, /^locales\s+en, /m],
  },
};

describe('public commands', () => {
  it('cover every public read operation', () => {
    const reads = operations.filter((op) => op.auth === 'public' && op.rest.method === 'GET').map((op) => op.name);
    assert.deepEqual(Object.keys(cases).sort(), reads.sort());
  });

  for (const [name, c] of Object.entries(cases)) {
    describe(`vitae ${c.args[0]} (${name})`, () => {
      it('prints with --json exactly the body the REST API answers', async () => {
        const run = await vitae([...c.args, '--json']);
        assert.equal(run.code, 0, run.stderr);
        assert.deepEqual(JSON.parse(run.stdout), await api(c.rest));
      });

      it('prints a human format without escape codes when piped', async () => {
        const run = await vitae(c.args);
        assert.equal(run.code, 0, run.stderr);
        for (const pattern of c.human) assert.match(run.stdout, pattern);
        assert.doesNotMatch(run.stdout + run.stderr, /\x1b\[/);
      });
    });
  }

  it('names kinds and a lens’s sections in the locale asked for, in the site’s words (a process, in French)', async () => {
    const env = { env: { SITE_URL: service.url } };
    const list = await runVitae(['list', '--kind', 'project', '--locale', 'fr'], env);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^concierge-copilot\s+Projet\s/m);
    const entry = await runVitae(['get', 'concierge-copilot', '--locale', 'fr'], env);
    assert.match(entry.stdout, / · Projet$/m);
    const lens = await runVitae(['lens', 'head-of-ai', '--locale', 'fr'], env);
    assert.match(lens.stdout, /^## Lacunes avouées$/m);
    assert.match(lens.stdout, /^## Preuves$/m);
    assert.match(lens.stdout, /^- Projets: \d+$/m);
    assert.doesNotMatch(list.stdout, /^\S+\s+project\s/m);
    assert.doesNotMatch(entry.stdout, / · project$/m);
    assert.doesNotMatch(lens.stdout, /^## (Honest gaps|Evidence)$/m);
  });

  it('accepts the global options before the command too, and --url over SITE_URL', async () => {
    const run = await runVitaeInProcess(['--url', service.url, '--json', 'get', 'concierge-copilot'], { env: { SITE_URL: 'http://127.0.0.1:9' } });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).slug, 'concierge-copilot');
  });

  it('prints the brief as the Markdown it is when piped, so `vitae brief > brief.md` keeps it', async () => {
    const run = await vitae(['brief']);
    assert.equal(run.stdout.trimEnd(), ((await api('/api/v1/brief')) as { markdown: string }).markdown.trimEnd());
  });

  it('lists entries newest first with the count on stderr', async () => {
    const run = await vitae(['list']);
    const body = (await api('/api/v1/entries')) as { entries: Array<{ slug: string }>; total: number };
    const slugs = run.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(/\s+/)[0]);
    assert.deepEqual(
      slugs,
      body.entries.map((e) => e.slug),
    );
    assert.match(run.stderr, new RegExp(`^${body.total} entries`));
  });

  it('documents the exit codes in --help', async () => {
    const run = await vitae(['--help']);
    assert.equal(run.code, 0);
    for (const line of ['2  usage', '3  not found', '4  auth', '5  forbidden', '6  invalid', '7  conflict', '8  rate limited', '9  unavailable'])
      assert.ok(run.stdout.includes(line), line);
    assert.match(run.stdout, /SITE_URL/);
    assert.match(run.stdout, /SITE_ADMIN_TOKEN/);
  });

  it('shows help with exit 0 (`--help`, `help <command>`), and exit 2 when a command is missing', async () => {
    for (const args of [['get', '--help'], ['help', 'get'], ['admin', 'help', 'put'], ['--version']]) assert.equal((await vitae(args)).code, 0, args.join(' '));
    for (const args of [[], ['admin']]) {
      const run = await vitae(args);
      assert.equal(run.code, 2, args.join(' '));
      assert.match(run.stderr, /^Usage: vitae/);
    }
  });

  it('lists the allowed values of enum options in command help', async () => {
    const run = await vitae(['list', '--help']);
    assert.match(run.stdout, /--tag <tag>\s+Industry tag \(choices: "it", "engineering"/);
    assert.match(run.stdout, /--locale <locale>[\s\S]*"zh-hant"[\s\S]*default: "en"/);
  });
});
