// Resources, prompts and completions of the public MCP server through the official SDK client over
// Streamable HTTP: what they list, that their text is what the public operations answer (REST is the
// reference), their errors, and that cached answers follow a new build.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { documentNames, lensIds, locales } from '../contract/shared.ts';
import { JOB_DESCRIPTION_MAX } from '../contract/match.ts';
import { prompts } from '../contract/prompts.ts';
import { resources } from '../contract/resources.ts';
import { startTestService, type TestService } from '../../testing/service.ts';
import { eventually } from '../../testing/admin-http.ts';

const TOKEN = 'mcp-resources-token-0123456789';
let service: TestService;
let client: Client;
before(async () => {
  service = await startTestService({ ADMIN_TOKEN: TOKEN });
  client = new Client({ name: 'vitae-resources-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)));
});
after(async () => {
  await client.close();
  await service.stop();
});

const rest = async (path: string) => (await service.get(path, { headers: { Accept: 'application/json' } })).json();
const textOf = async (uri: string) => {
  const { contents } = await client.readResource({ uri });
  assert.equal(contents.length, 1);
  assert.equal(contents[0]!.uri, uri);
  assert.equal(contents[0]!.mimeType, 'text/markdown');
  return (contents[0] as { text: string }).text;
};

describe('MCP resources', () => {
  it('announces resources, prompts and completions in its capabilities', () => {
    const capabilities = client.getServerCapabilities();
    assert.ok(capabilities?.resources && capabilities.prompts && capabilities.completions && capabilities.tools);
  });

  it('lists the four URI templates, each with a locale', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((t) => t.uriTemplate),
      ['vitae://brief{?locale}', 'vitae://entries/{slug}{?locale}', 'vitae://lenses/{id}{?locale}', 'vitae://documents/{name}{?locale}'],
    );
    for (const template of resourceTemplates) {
      assert.equal(template.mimeType, 'text/markdown');
      assert.ok(template.title && template.description, template.name);
    }
    assert.equal(resourceTemplates.length, resources.length, 'defined once, in contract/resources.ts');
  });

  it('lists the brief, every entry, lens and document', async () => {
    const listed = (await client.listResources()).resources;
    const entries: Array<{ slug: string; title: string }> = (await rest('/api/v1/entries')).entries;
    assert.deepEqual(
      listed.map((r) => r.uri).sort(),
      [
        'vitae://brief',
        ...entries.map((e) => `vitae://entries/${e.slug}`),
        ...lensIds.map((id) => `vitae://lenses/${id}`),
        ...documentNames.map((name) => `vitae://documents/${name}`),
      ].sort(),
    );
    for (const resource of listed) assert.ok(resource.title && resource.mimeType === 'text/markdown', resource.uri);
    assert.equal(listed.find((r) => r.uri === `vitae://entries/${entries[0]!.slug}`)!.title, entries[0]!.title);
  });

  it('reads every listed resource as Markdown', async () => {
    for (const { uri } of (await client.listResources()).resources) {
      const text = await textOf(uri);
      assert.ok(text.trim().length > 100, `${uri} has text`);
      if (uri !== 'vitae://brief') assert.match(text, /^# /, `${uri} starts with its title`);
    }
  });

  it('says what the public operations say, in the locale asked for', async () => {
    const brief = await (await service.get('/api/v1/brief?locale=ja')).text();
    assert.equal(await textOf('vitae://brief?locale=ja'), brief);

    const entry = await rest('/api/v1/entries/concierge-copilot?locale=fr');
    const entryText = await textOf('vitae://entries/concierge-copilot?locale=fr');
    for (const part of [entry.title, entry.summary, entry.keyResult, ...entry.contributions, ...entry.skills, entry.url]) {
      assert.ok(entryText.includes(part), `the entry resource holds "${part}"`);
    }
    assert.match(entryText, /^## Vue d’ensemble$/m, 'its headings in the locale asked for');
    assert.doesNotMatch(entryText, /^## Overview$/m);

    const lens = await rest('/api/v1/lenses/head-of-ai?locale=es');
    const lensText = await textOf('vitae://lenses/head-of-ai?locale=es');
    for (const part of [lens.title, lens.pitch.trim(), ...lens.honestGaps]) assert.ok(lensText.includes(part), `the lens resource holds "${part}"`);

    const doc = await rest('/api/v1/documents/thinking?locale=zh');
    assert.ok((await textOf('vitae://documents/thinking?locale=zh')).includes(doc.markdown.trim()));
  });

  it('answers -32002 for a URI that names nothing and -32602 for a locale it does not know, without repeated prefixes', async () => {
    for (const uri of [
      'vitae://entries/no-such-entry',
      'vitae://documents/nope',
      'vitae://lenses/nope',
      'vitae://nothing/here',
      'https://example.com/',
      'vitae://entries/concierge-copilot?colour=red',
    ]) {
      await assert.rejects(client.readResource({ uri }), (e: any) => e.code === -32002 && !/MCP error -?\d+: MCP error/.test(e.message), uri);
    }
    // Worded for an MCP client: a hint names a tool, never a REST route.
    await assert.rejects(client.readResource({ uri: 'vitae://entries/no-such-entry' }), (e: any) => {
      assert.doesNotMatch(e.message, /\/api\/|GET |POST /);
      assert.match(e.message, /no-such-entry/);
      assert.match(e.message, /`list_\w+` tool|resources\/list/);
      return true;
    });
    // A lens that is none is get_lens's not_found: the words of its tool and its REST route's 404.
    const rest404 = (await (await service.get('/api/v1/lenses/astronaut')).json()) as { message: string };
    await assert.rejects(client.readResource({ uri: 'vitae://lenses/astronaut' }), (e: any) => e.code === -32002 && e.message.includes(rest404.message));
    await assert.rejects(
      client.readResource({ uri: 'vitae://brief?locale=de' }),
      (e: any) => e.code === -32602 && /locale/.test(e.message) && !/MCP error -?\d+: MCP error/.test(e.message),
    );
  });
});

describe('MCP prompts', () => {
  it('lists the prompts with their arguments', async () => {
    const listed = (await client.listPrompts()).prompts;
    assert.deepEqual(
      listed.map((p) => p.name),
      prompts.map((p) => p.name),
    );
    const pitch = listed.find((p) => p.name === 'pitch_for_role')!;
    assert.deepEqual(
      pitch.arguments?.map((a) => [a.name, a.required]),
      [
        ['lens', true],
        ['locale', false],
      ],
    );
    for (const prompt of listed) assert.ok(prompt.title && prompt.description && prompt.arguments?.every((a) => a.description), prompt.name);
  });

  it('pitch_for_role embeds the lens resource in the locale asked for, and the entries behind it', async () => {
    const { messages } = await client.getPrompt({ name: 'pitch_for_role', arguments: { lens: 'head-of-ai', locale: 'ja' } });
    const embedded = messages.find((m) => m.content.type === 'resource')!.content as { resource: { uri: string; text: string } };
    assert.equal(embedded.resource.uri, 'vitae://lenses/head-of-ai?locale=ja');
    assert.equal(embedded.resource.text, await textOf('vitae://lenses/head-of-ai?locale=ja'));
    const text = messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
    assert.match(text, /Japanese/);
    const evidence: Array<{ url: string }> = (await rest('/api/v1/entries?lens=head-of-ai&locale=ja')).entries;
    assert.ok(evidence.length > 0 && evidence.slice(0, 8).every((e) => text.includes(e.url)), 'the evidence entries are linked');
  });

  it('compare_to_job carries the pasted job description, the brief and the matching passages', async () => {
    const job = 'Head of AI for a hotel group: lead a small team shipping LLM assistants for hotel guests; evaluation and privacy matter.';
    const { messages } = await client.getPrompt({ name: 'compare_to_job', arguments: { job_description: job } });
    const texts = messages.map((m) =>
      m.content.type === 'text' ? m.content.text : m.content.type === 'resource' ? (m.content.resource as { text: string }).text : '',
    );
    assert.ok(texts.some((t) => t.includes(job)));
    assert.ok(texts.includes(await textOf('vitae://brief')), 'the brief is embedded');
    assert.ok(
      texts.some((t) => t.includes('/entries/concierge-copilot')),
      'the best-matching passages are linked',
    );
  });

  it('compare_to_job takes what match_role takes: a one-line description too', async () => {
    const job = '- Python';
    const matched = await service.get('/api/v1/match', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jobDescription: job }),
    });
    assert.equal(matched.status, 200, await matched.text());
    const { messages } = await client.getPrompt({ name: 'compare_to_job', arguments: { job_description: job } });
    assert.ok(messages.some((m) => m.content.type === 'text' && m.content.text.endsWith(job)));
  });

  it('explain_entry embeds the entry resource', async () => {
    const { messages } = await client.getPrompt({ name: 'explain_entry', arguments: { slug: 'concierge-copilot', locale: 'es' } });
    const embedded = messages.find((m) => m.content.type === 'resource')!.content as { resource: { uri: string; text: string } };
    assert.equal(embedded.resource.uri, 'vitae://entries/concierge-copilot?locale=es');
    assert.equal(embedded.resource.text, await textOf('vitae://entries/concierge-copilot?locale=es'));
  });

  it('refuses a missing or wrong argument with -32602 naming it, and an unknown prompt', async () => {
    const refused = async (name: string, args: Record<string, string>, field: RegExp) =>
      assert.rejects(
        client.getPrompt({ name, arguments: args }),
        (e: any) => e.code === -32602 && field.test(e.message) && !/MCP error -?\d+: MCP error/.test(e.message),
        `${name} ${JSON.stringify(args)}`,
      );
    await refused('pitch_for_role', {}, /lens/);
    await refused('pitch_for_role', { lens: 'astronaut' }, /lens/);
    await refused('compare_to_job', { job_description: '   ' }, /job_description/);
    await refused('compare_to_job', { job_description: 'x'.repeat(JOB_DESCRIPTION_MAX + 1) }, /job_description/);
    await refused('explain_entry', { slug: 'no-such-entry' }, /no-such-entry/);
    await refused('no_such_prompt', {}, /Unknown prompt/);
  });
});

describe('MCP completions', () => {
  it('completes prompt arguments and URI template variables from the vocabularies', async () => {
    const lens = await client.complete({ ref: { type: 'ref/prompt', name: 'pitch_for_role' }, argument: { name: 'lens', value: 'developer-' } });
    assert.deepEqual(lens.completion.values, ['developer-advocate', 'developer-evangelist']);
    const locale = await client.complete({ ref: { type: 'ref/resource', uri: 'vitae://entries/{slug}{?locale}' }, argument: { name: 'locale', value: 'zh' } });
    assert.deepEqual(locale.completion.values, ['zh', 'zh-hant']);
    const all = await client.complete({ ref: { type: 'ref/resource', uri: 'vitae://brief{?locale}' }, argument: { name: 'locale', value: '' } });
    assert.deepEqual(all.completion.values, [...locales]);
  });

  it("completes an entry's slug from the entries of this branch, for the entry template and explain_entry alike", async () => {
    const bySlug = await client.complete({
      ref: { type: 'ref/resource', uri: 'vitae://entries/{slug}{?locale}' },
      argument: { name: 'slug', value: 'concierge' },
    });
    assert.deepEqual(bySlug.completion.values, ['concierge-copilot']);
    const every = await client.complete({ ref: { type: 'ref/resource', uri: 'vitae://entries/{slug}{?locale}' }, argument: { name: 'slug', value: '' } });
    const { entries } = (await client.callTool({ name: 'list_experience', arguments: {} })).structuredContent as { entries: Array<{ slug: string }> };
    assert.deepEqual([...every.completion.values].sort(), entries.map((e) => e.slug).sort());
    const prompt = await client.complete({ ref: { type: 'ref/prompt', name: 'explain_entry' }, argument: { name: 'slug', value: 'rag-' } });
    assert.deepEqual(prompt.completion.values, ['rag-evaluation-harness']);
    const none = await client.complete({ ref: { type: 'ref/prompt', name: 'explain_entry' }, argument: { name: 'slug', value: 'zzz' } });
    assert.deepEqual(none.completion, { values: [], total: 0, hasMore: false });
  });
});

describe('cached MCP answers', () => {
  it('follow a new build: a tool call and a resource read show an edit once it is live', async () => {
    const path = 'content/corpus/projects/concierge-copilot.md';
    const headers = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
    const summary = (r: any) => r.structuredContent.summary as string;
    const before = await client.callTool({ name: 'get_entry', arguments: { slug: 'concierge-copilot' } });
    assert.equal(summary(await client.callTool({ name: 'get_entry', arguments: { slug: 'concierge-copilot' } })), summary(before), 'the same answer twice');
    await textOf('vitae://entries/concierge-copilot');

    const file = (await (await service.get(`/api/admin/file?path=${path}`, { headers })).json()) as { content: string };
    const edited = 'A summary written by the MCP cache test.';
    const put = await service.get('/api/admin/file', {
      method: 'PUT',
      headers,
      body: JSON.stringify({ path, content: file.content.replace(/^summary: .*$/m, `summary: ${JSON.stringify(edited)}`), message: 'MCP cache test' }),
    });
    assert.equal(put.status, 200, await put.text());
    await eventually(
      'the edit to be live over REST',
      async () => ((await rest('/api/v1/entries/concierge-copilot')).summary === edited ? true : undefined),
      60_000,
    );

    assert.equal(summary(await client.callTool({ name: 'get_entry', arguments: { slug: 'concierge-copilot' } })), edited);
    assert.ok((await textOf('vitae://entries/concierge-copilot')).includes(edited));
  });
});
