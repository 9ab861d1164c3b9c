// The examples each operation carries in the contract, run through every door. Valid ones succeed over REST
// and MCP (and are what OpenAPI shows). Invalid ones get one set of words whichever door they come through:
// REST, MCP over HTTP, the site's gateway, the agent's tools and the CLI all answer with the message of the
// one input parser, naming each field the way that caller names it (`q` over REST, `--tag` on the CLI).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { offeredOn, operations, type AnyOperation } from '../contract/index.ts';
import { parseInput, InputError } from '../contract/issues.ts';
import { requestFor } from './client.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { bindPositional, commandLineNames } from '../../cli/input.ts';
import { flagName } from '../../cli/fields.ts';
import { parseUsage } from '../../cli/usage.ts';
import { runVitaeInProcess } from '../../cli/run-vitae.ts';

/** The command line that sends `input` to `op`, or undefined when the CLI cannot say it (two fields one positional fills). */
function commandLineFor(op: AnyOperation, input: Record<string, unknown>): { args: string[]; stdin?: string; names: Record<string, string> } | undefined {
  if (!op.cli) return undefined;
  const usage = parseUsage(op.cli);
  const bindings = usage.positionals.map((p) => bindPositional(op, p));
  const args = [...usage.path];
  const used = new Set<string>();
  let stdin: string | undefined;
  for (const { mapping, fields } of bindings) {
    const given = fields.filter((f) => input[f] !== undefined);
    if (given.length > 1) return undefined;
    fields.forEach((f) => used.add(f));
    if (mapping && 'readInto' in mapping) {
      if (input[mapping.readInto] === undefined) return undefined; // a file must be named; the CLI cannot leave it out
      args.push('-');
      const value = input[mapping.readInto];
      stdin = mapping.json ? JSON.stringify(value ?? null) : String(value ?? '');
      if (mapping.base64) {
        // The CLI base64-encodes the bytes it reads: it can send the bytes of base64 (ASCII ones, as stdin is text here), never text that is not base64.
        const bytes = Buffer.from(stdin, 'base64');
        if (bytes.toString('base64') !== stdin || !/^[\x20-\x7e]*$/.test(bytes.toString('latin1'))) return undefined;
        stdin = bytes.toString('latin1');
      }
    } else if (given.length) args.push(String(input[given[0]!]));
  }
  for (const [field, value] of Object.entries(input)) {
    if (used.has(field) || value === undefined) continue;
    args.push(`--${flagName(field)}`, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return { args, stdin, names: commandLineNames(op, bindings) };
}

const TOKEN = 'same-words-token-5d1c9b8e7f6a';

/** The words the one parser gives for `input`, with fields named as `names` says. */
function wordsFor(op: AnyOperation, input: Record<string, unknown>, names?: Record<string, string>): string {
  try {
    parseInput(op.input, input, names);
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
  throw new Error(`${op.name}: the invalid example ${JSON.stringify(input)} is valid`);
}

const examples = operations.flatMap((op) => (op.examples?.invalid ?? []).map((example) => ({ op: op, ...example })));

let service: TestService;
let model: FakeOpenAI;
before(async () => {
  model = await startFakeOpenAI();
  service = await startTestService({ ADMIN_TOKEN: TOKEN, OPENAI_BASE_URL: `${model.url}/v1`, OPENAI_API_KEY: 'sk-test' });
});
after(async () => {
  await service.stop();
  await model.close();
});

const validExamples = operations.flatMap((op) => (op.examples?.valid ?? []).map((example) => ({ op: op, ...example })));

describe('valid examples', () => {
  it('succeed over REST and MCP alike', async () => {
    let id = 0;
    assert.ok(validExamples.length >= 10);
    for (const { op, input, summary } of validExamples) {
      const token = op.auth === 'admin' ? TOKEN : undefined;
      const request = requestFor(op, input, { baseUrl: service.url, token });
      const res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
      assert.equal(res.status, 200, `${op.name} (${summary}): ${await res.clone().text()}`);
      // A text stream (the chat) is the answer as it is written, and offered over REST alone.
      if (op.rest.stream) {
        assert.match(res.headers.get('content-type') ?? '', /^text\/plain/, `${op.name} (${summary})`);
        assert.ok((await res.text()).length > 0, `${op.name} (${summary}) answered`);
        continue;
      }
      const rest = await res.json();
      const rpc = await fetch(`${service.url}${token ? '/mcp/admin' : '/mcp'}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: op.name, arguments: input } }),
      });
      const { result } = (await rpc.json()) as { result: { isError?: boolean; structuredContent: unknown } };
      assert.ok(!result.isError, `${op.name} (${summary}) over MCP`);
      if (op.pure) assert.deepEqual(result.structuredContent, rest, `${op.name}: the same answer through both doors`);
    }
  });
});

describe('the same words for the same bad input on every surface', () => {
  it('has an invalid example for every operation that takes input besides its address (a bad address is 404, not 400)', () => {
    const addressed = (op: (typeof operations)[number], field: string) => op.rest.path.includes(`{${field}}`);
    const withInput = operations.filter((op) => Object.keys(op.input.shape).some((field) => !addressed(op, field))).map((op) => op.name);
    assert.deepEqual(
      withInput.filter((name) => !examples.some((e) => e.op.name === name)),
      [],
    );
  });

  it('REST answers 400 with the parser’s words (REST names where they differ)', async () => {
    for (const { op, input, summary } of examples) {
      const request = requestFor(op, input, { baseUrl: service.url, token: op.auth === 'admin' ? TOKEN : undefined });
      const res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
      const body = (await res.json()) as { code: string; message: string };
      assert.equal(res.status, 400, `${op.name} (${summary}): ${JSON.stringify(body)}`);
      assert.equal(body.code, 'bad_request');
      assert.equal(body.message, wordsFor(op, input, op.rest.rename), `${op.name} (${summary})`);
    }
  });

  it('MCP answers with the same words: -32602 once, without a repeated prefix, or in 2025-11-25 a tool result with isError', async () => {
    let id = 0;
    // No MCP-Protocol-Version: the rules before 2025-11-25, as for 2025-06-18.
    for (const version of [undefined, '2025-06-18', '2025-11-25']) {
      for (const { op, input, summary } of examples) {
        if (!offeredOn(op, 'mcp')) continue;
        const res = await fetch(`${service.url}${op.auth === 'admin' ? '/mcp/admin' : '/mcp'}`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            ...(version ? { 'MCP-Protocol-Version': version } : {}),
            ...(op.auth === 'admin' ? { Authorization: `Bearer ${TOKEN}` } : {}),
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: op.name, arguments: input } }),
        });
        const answer = (await res.json()) as {
          error?: { code: number; message: string; data?: { code: string } };
          result?: { isError?: boolean; content: Array<{ text: string }> };
        };
        const where = `${op.name} (${summary}) in ${version ?? 'no version'}: ${JSON.stringify(answer)}`;
        if (version === '2025-11-25') {
          assert.equal(answer.result?.isError, true, where);
          const body = JSON.parse(answer.result.content[0]!.text) as { code: string; message: string };
          assert.deepEqual([body.code, body.message], ['bad_request', wordsFor(op, input)], where);
        } else {
          assert.equal(answer.error?.code, -32602, where);
          assert.equal(answer.error.message, wordsFor(op, input), where);
          assert.equal(answer.error.data?.code, 'bad_request');
        }
      }
    }
  });

  it('the site’s gateway (the pages’ loaders and the console) refuses with the same words', async () => {
    // Admin operations run as an editor signed in to the console.
    const setCookie = await service.gateway.login(TOKEN, {
      branch: 'main',
      ip: '127.0.0.1',
      request: new Request('http://vitae.test/admin/login', { method: 'POST' }),
    });
    const editor = new Request('http://vitae.test/admin', { headers: { Cookie: setCookie.split(';')[0]! } });
    for (const { op, input, summary } of examples) {
      await assert.rejects(
        service.gateway.call(op.name as never, input as never, { branch: 'main', ip: '127.0.0.1', ...(op.auth === 'admin' ? { request: editor } : {}) }),
        (error: Error) => error instanceof InputError && error.message === wordsFor(op, input),
        `${op.name} (${summary})`,
      );
    }
  });

  it('the CLI refuses with the same words, naming its flags and arguments, before any request', async () => {
    let said = 0;
    for (const { op, input, summary } of examples) {
      const line = commandLineFor(op, input);
      if (!line) continue;
      said++;
      const run = await runVitaeInProcess(line.args, { env: { SITE_URL: service.url, SITE_ADMIN_TOKEN: TOKEN }, input: line.stdin });
      assert.equal(run.code, 2, `${op.name} (${summary}): ${run.stderr}`);
      assert.ok(run.stderr.includes(wordsFor(op, input, line.names)), `${op.name} (${summary}): ${run.stderr}`);
    }
    const onCli = examples.filter(({ op }) => offeredOn(op, 'cli')).length;
    assert.ok(said >= onCli - 2, `the command line says ${said} of the ${onCli} invalid examples of its commands`);
  });

  it('the agent’s tools give the model the same words when it gets an argument wrong', async () => {
    const agentExamples = examples.filter(({ op }) => op.agent);
    assert.ok(agentExamples.length >= 6, 'every tool of the agent has an invalid example');
    for (const { op, input, summary } of agentExamples) {
      const before = model.requests.length;
      model.script({ toolCalls: [{ name: op.name, arguments: input }] }, { text: 'Sorry.' });
      await service.layer.agent.run(
        { branch: 'main', ip: '127.0.0.1', principal: { kind: 'anonymous' } },
        { messages: [{ role: 'user', content: 'Tell me.' }], locale: 'en' },
      );
      const second = model.requests[before + 1]!.body;
      const toolMessage = second.messages.find((m: { role: string }) => m.role === 'tool');
      assert.ok(toolMessage, `${op.name}: the tool result went back to the model`);
      assert.ok(String(toolMessage.content).includes(wordsFor(op, input)), `${op.name} (${summary}): ${toolMessage.content}`);
    }
  });
});
