// The model-backed commands, run in process, against a service whose model is a scripted OpenAI-compatible
// server: `vitae ask` (answer and sources, `--json` as the API body, the shared budget reaching exit 8) and
// `vitae admin ai-edit` (a diff, nothing written).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeOpenAI, type FakeOpenAI, type ScriptedReply } from '../testing/fake-openai.ts';
import { englishOnlyContent } from '../testing/content-fixture.ts';
import { startTestService, type TestService } from '../testing/service.ts';
import { runVitaeInProcess } from './run-vitae.ts';

const TOKEN = 'cli-model-token-0123456789abcdef';
let model: FakeOpenAI;
let service: TestService;
before(async () => {
  model = await startFakeOpenAI();
  service = await startTestService({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'sk-test-key', ADMIN_TOKEN: TOKEN, CONTENT_DIR: englishOnlyContent() });
});
after(async () => {
  await service.stop();
  await model.close();
});

const vitae = (args: string[]) => runVitaeInProcess(args, { env: { SITE_URL: service.url } });
const askApi = (question: string) =>
  service.get('/api/v1/ask', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ question }),
  });
const grounded = (answer: string): ScriptedReply[] => [
  { toolCalls: [{ name: 'get_entry', arguments: { slug: 'concierge-copilot', locale: 'en' } }] },
  { text: answer },
];

describe('vitae ask', () => {
  it('streams the answer through /api/chat as it arrives, then lists its sources', async () => {
    model.script(...grounded('Noa led **Concierge Copilot**, a guest assistant.').map((r) => ('text' in r ? { ...r, chunks: 5, delayMs: 20 } : r)));
    const run = await vitae(['ask', 'What did Noa build for hotels?']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'Noa led **Concierge Copilot**, a guest assistant.\n\nSources\n  concierge-copilot\n');
    assert.ok(!run.stdout.includes('\u001e'), 'status lines are not printed as text');
    const last = model.requests
      .at(-1)!
      .body.messages.map((m: { content: unknown }) => JSON.stringify(m.content))
      .join('\n');
    assert.match(last, /What did Noa build for hotels\?/);
  });

  it('prints with --json the body the REST API answers', async () => {
    model.script(...grounded('The same answer.'));
    const cli = await vitae(['ask', 'What did Noa build?', '--json']);
    assert.equal(cli.code, 0, cli.stderr);
    model.script(...grounded('The same answer.'));
    assert.deepEqual(JSON.parse(cli.stdout), await (await askApi('What did Noa build?')).json());
  });

  it(`exits 8 when the ask budget is spent, saying when to retry`, async () => {
    for (let i = 0; i < 25 && (await askApi('again?')).status !== 429; i++);
    // With --json the one body says when, once, and nothing is printed beside it.
    const json = await vitae(['ask', 'One more?', '--json']);
    assert.equal(json.code, 8, json.stderr);
    const body = JSON.parse(json.stdout);
    assert.equal(body.code, 'rate_limited');
    assert.match(body.message, /Try again in \d+ seconds\./);
    assert.equal(body.message.match(/try again/gi)?.length, 1, `the wait is said once: ${body.message}`);
    assert.ok(body.retryAfter > 0);
    assert.equal(json.stderr, '');
  });
});

describe('vitae admin ai-edit', () => {
  const admin = (args: string[]) => runVitaeInProcess(['admin', ...args], { env: { SITE_URL: service.url, SITE_ADMIN_TOKEN: TOKEN } });

  it('prints the proposed change as a diff and writes nothing', async () => {
    const saved = await admin(['get', 'concierge-copilot', '--json']);
    const { content, sha } = JSON.parse(saved.stdout) as { content: string; sha: string };
    model.script({ text: content.replace(/^title: .*$/m, 'title: "Concierge Copilot"') });
    const run = await admin(['ai-edit', 'concierge-copilot', 'Shorten the title']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^-title: "Concierge Copilot: an LLM assistant for hotel guests"$/m);
    assert.match(run.stdout, /^\+title: "Concierge Copilot"$/m);
    assert.match(run.stderr, new RegExp(`Nothing was written.*--sha ${sha}`));
    assert.equal(JSON.parse((await admin(['get', 'concierge-copilot', '--json'])).stdout).sha, sha, 'the file is unchanged');
  });

  it('--apply writes the proposal with its base sha, and --wait follows it until live', async () => {
    const { content } = JSON.parse((await admin(['get', 'concierge-copilot', '--json'])).stdout) as { content: string };
    const proposed = content.replace(/^title: .*$/m, 'title: "Concierge Copilot, applied"');
    model.script({ text: proposed });
    const run = await admin(['ai-edit', 'concierge-copilot', 'Retitle it', '--apply', '--wait']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^\+title: "Concierge Copilot, applied"$/m);
    assert.match(run.stdout, /^Committed [0-9a-f]{7} to main: AI edit: Retitle it$/m);
    assert.match(run.stderr, /Live on main/);
    assert.equal(JSON.parse((await admin(['get', 'concierge-copilot', '--json'])).stdout).content, proposed);
  });

  it('lists the problems of an invalid proposal as path:line: message and exits 6', async () => {
    const { content } = JSON.parse((await admin(['get', 'content/corpus/projects/concierge-copilot.md', '--json'])).stdout) as { content: string };
    model.script({ text: content.replace(/^tags: .*$/m, 'tags: [cooking]') });
    const run = await admin(['ai-edit', 'content/corpus/projects/concierge-copilot.md', 'Tag it cooking', '--apply']);
    assert.equal(run.code, 6, run.stderr);
    assert.match(run.stderr, /Not applied/);
    assert.match(run.stdout, /^content\/corpus\/projects\/concierge-copilot\.md:\d+: tags\.0 must be one of/m);
  });
});
