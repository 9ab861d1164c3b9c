// The official MCP Inspector CLI (@modelcontextprotocol/inspector-cli, run as a process) against the real
// service on loopback: over Streamable HTTP (`/mcp`, `/mcp/admin` with the bearer token) and over stdio
// (`vitae mcp`), it lists and calls every tool, lists the resources and their templates and reads one of
// each, and lists and gets every prompt.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { offeredOn, operations, type AnyOperation } from '../contract/index.ts';
import { prompts } from '../contract/prompts.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai.ts';
import { cleanEnv, VITAE_BIN } from '../../cli/run-vitae.ts';

const INSPECTOR = fileURLToPath(new URL('../../node_modules/.bin/mcp-inspector-cli', import.meta.url));
const ASKS_FOR = new URL('../../testing/mcp-client-version.ts', import.meta.url).href;
const TOKEN = 'inspector-admin-token-0123456789';

let service: TestService;
let model: FakeOpenAI;
before(async () => {
  model = await startFakeOpenAI();
  model.fallback = { text: 'Noa is based in Lisbon (profile).' };
  service = await startTestService({ ADMIN_TOKEN: TOKEN, OPENAI_BASE_URL: model.url });
});
after(async () => {
  await service.stop();
  await model.close();
});

/** Runs the Inspector CLI against `target` and gives the JSON it prints; rejects with its stderr when it fails. */
function inspect(target: string[], args: string[], asks?: string): Promise<any> {
  // The Inspector's SDK asks for its latest version (2025-11-25); MCP_CLIENT_ASKS makes it ask for an older one.
  const older = asks ? { MCP_CLIENT_ASKS: asks, NODE_OPTIONS: `--import tsx --import ${ASKS_FOR}` } : {};
  return new Promise((resolve, reject) => {
    execFile(
      INSPECTOR,
      ['--cli', ...target, ...args],
      { env: cleanEnv({ SITE_URL: service.url, ...older }), maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`inspector ${args.join(' ')} failed: ${stderr || error.message}`));
        try {
          resolve(JSON.parse(stdout));
        } catch {
          reject(new Error(`inspector ${args.join(' ')} printed no JSON: ${stdout.slice(0, 500)}`));
        }
      },
    );
  });
}

/** `--tool-arg key=value` pairs; the Inspector reads each value as JSON when it can, so non-strings are sent as JSON. */
const pairs = (flag: string, input: Record<string, unknown>) =>
  Object.keys(input).length
    ? [
        flag,
        ...Object.entries(input).map(
          ([key, value]) => `${key}=${typeof value === 'string' && !/^[\d[{"-]|^(true|false|null)$/.test(value) ? value : JSON.stringify(value)}`,
        ),
      ]
    : [];

const names = (auth: 'public' | 'admin') =>
  operations
    .filter((op) => op.auth === auth && offeredOn(op, 'mcp'))
    .map((op) => op.name)
    .sort();

const SKILL = (name: string) => `---\nname: ${name}\ncategory: engineering\n---\nA skill made by the Inspector test.\n`;
const PROBE = 'content/skills/inspector-probe.md';

/** Inputs that succeed for every tool: the definition's own example where it has one, else one made here (writes go to dev). */
function argumentsFor(op: AnyOperation): Record<string, unknown> {
  const made: Record<string, Record<string, unknown>> = {
    admin_write_file: { path: PROBE, content: SKILL('Inspector Probe'), message: 'Inspector: add a probe skill', branch: 'dev' },
    admin_commit_changes: { changes: [{ path: PROBE, content: SKILL('Inspector Probe Two') }], message: 'Inspector: change the probe', branch: 'dev' },
    admin_delete_file: { path: PROBE, message: 'Inspector: remove the probe', branch: 'dev' },
    // A 2×2 PNG.
    admin_upload_media: {
      path: 'content/media/inspector-probe.png',
      contentBase64: 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWMwTjtjnHaGAUIBACS2BZUFBQd/AAAAAElFTkSuQmCC',
      message: 'Inspector: add an image',
      branch: 'dev',
    },
    // The editor admin_add_editor's example adds (listed before these two): promoted, then removed.
    admin_update_editor: { id: 'ada-coach', role: 'publisher' },
    admin_revoke_editor: { id: 'ada-coach' },
  };
  return made[op.name] ?? op.examples?.valid?.[0]?.input ?? {};
}

const transports = () => ({
  'Streamable HTTP (/mcp)': [`${service.url}/mcp`],
  'stdio (vitae mcp)': [process.execPath, VITAE_BIN, 'mcp', '--url', service.url],
});

describe('MCP Inspector CLI', () => {
  for (const name of ['Streamable HTTP (/mcp)', 'stdio (vitae mcp)'] as const) {
    describe(name, () => {
      const target = () => transports()[name];

      it('lists every public tool, described, and calls each one', async () => {
        const { tools } = await inspect(target(), ['--method', 'tools/list']);
        assert.deepEqual(tools.map((t: { name: string }) => t.name).sort(), names('public'));
        for (const tool of tools) assert.ok(tool.title && tool.annotations && tool.outputSchema && tool.inputSchema, tool.name);
        for (const op of operations.filter((o) => o.auth === 'public' && offeredOn(o, 'mcp'))) {
          const result = await inspect(target(), ['--method', 'tools/call', '--tool-name', op.name, ...pairs('--tool-arg', argumentsFor(op))]);
          assert.notEqual(result.isError, true, `${op.name}: ${JSON.stringify(result.content)}`);
          op.output.parse(result.structuredContent);
        }
      });

      it('lists the resources and their templates, and reads one of each template', async () => {
        const { resourceTemplates } = await inspect(target(), ['--method', 'resources/templates/list']);
        assert.equal(resourceTemplates.length, 4);
        const { resources } = await inspect(target(), ['--method', 'resources/list']);
        for (const template of ['vitae://brief', 'vitae://entries/', 'vitae://lenses/', 'vitae://documents/']) {
          const first = resources.find((r: { uri: string }) => r.uri.startsWith(template));
          assert.ok(first, `a resource of ${template}`);
          const uri = `${first.uri}?locale=fr`;
          const { contents } = await inspect(target(), ['--method', 'resources/read', '--uri', uri]);
          assert.equal(contents[0].uri, uri);
          assert.equal(contents[0].mimeType, 'text/markdown');
          assert.ok(contents[0].text.length > 100, uri);
        }
      });

      it('lists every prompt and gets each one', async () => {
        const listed = await inspect(target(), ['--method', 'prompts/list']);
        assert.deepEqual(
          listed.prompts.map((p: { name: string }) => p.name),
          prompts.map((p) => p.name),
        );
        const args: Record<string, Record<string, string>> = {
          pitch_for_role: { lens: 'head-of-ai', locale: 'fr' },
          compare_to_job: { job_description: 'Head of AI for a hotel group, shipping LLM assistants for guests.' },
          explain_entry: { slug: 'concierge-copilot' },
        };
        for (const prompt of prompts) {
          assert.ok(args[prompt.name], `arguments for ${prompt.name}`);
          const { messages } = await inspect(target(), [
            '--method',
            'prompts/get',
            '--prompt-name',
            prompt.name,
            ...pairs('--prompt-args', args[prompt.name]!),
          ]);
          assert.ok(messages.length >= 2 && messages.some((m: { content: { type: string } }) => m.content.type === 'resource'), prompt.name);
        }
      });
    });
  }

  it('lists every admin tool over /mcp/admin with the bearer token and calls each one', async () => {
    const target = [`${service.url}/mcp/admin`, '--transport', 'http', '--header', `Authorization: Bearer ${TOKEN}`];
    const { tools } = await inspect(target, ['--method', 'tools/list']);
    assert.deepEqual(tools.map((t: { name: string }) => t.name).sort(), names('admin'));
    // Reads first, then the changes in an order that leaves the content as it was (a probe added, changed, removed), promote last.
    const order = (op: AnyOperation) =>
      op.name === 'admin_promote' ? 3 : op.effect ? ['admin_write_file', 'admin_commit_changes', 'admin_delete_file'].indexOf(op.name) : -1;
    const admin = operations.filter((o) => o.auth === 'admin').sort((a, b) => order(a) - order(b));
    for (const op of admin) {
      const result = await inspect(target, ['--method', 'tools/call', '--tool-name', op.name, ...pairs('--tool-arg', argumentsFor(op))]);
      assert.notEqual(result.isError, true, `${op.name}: ${JSON.stringify(result.content)}`);
      op.output.parse(result.structuredContent);
    }
  });

  for (const name of ['Streamable HTTP (/mcp)', 'stdio (vitae mcp)'] as const) {
    it(`over ${name}, negotiates 2025-06-18 for a client that asks for it and lists and calls tools under it`, async () => {
      const target = transports()[name];
      const { tools } = await inspect(target, ['--method', 'tools/list'], '2025-06-18');
      assert.deepEqual(tools.map((t: { name: string }) => t.name).sort(), names('public'));
      const result = await inspect(target, ['--method', 'tools/call', '--tool-name', 'get_entry', '--tool-arg', 'slug=concierge-copilot'], '2025-06-18');
      assert.equal(result.structuredContent.slug, 'concierge-copilot');
    });

    it(`over ${name}, reports refused arguments as a tool result under 2025-11-25 and as the Inspector’s failure under 2025-06-18, naming the field once`, async () => {
      // (A slug no entry could have is not refused but not found, as over REST: a locale is what is refused here.)
      const args = ['--method', 'tools/call', '--tool-name', 'get_entry', '--tool-arg', 'slug=concierge-copilot', '--tool-arg', 'locale=klingon'];
      const target = transports()[name];
      const result = await inspect(target, args);
      assert.equal(result.isError, true);
      const body = JSON.parse(result.content[0].text);
      assert.equal(body.code, 'bad_request');
      assert.deepEqual(
        body.errors.map((e: { pointer: string }) => e.pointer),
        ['/locale'],
      );
      await assert.rejects(
        inspect(target, args, '2025-06-18'),
        (e: Error) => /-32602/.test(e.message) && /locale/.test(e.message) && !/MCP error -32602: MCP error/.test(e.message),
      );
    });
  }
});
