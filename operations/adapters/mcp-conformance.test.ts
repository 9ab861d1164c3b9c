// The official MCP conformance suite (@modelcontextprotocol/conformance, run as a process on Node.js 22 or later,
// which it needs) against the public server /mcp of the real service on loopback. Every scenario of its active
// suite passes, but those mcp-conformance.expected.yaml lists: the ones that call the reference server's own test
// tools, prompts and resources, and the few a stateless server answers differently by design. Each listed one must
// fail for the reason written there, so the list cannot hide a regression.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { startTestService, type TestService } from '../../testing/service.ts';

const SUITE = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));
const EXPECTED = fileURLToPath(new URL('./mcp-conformance.expected.yaml', import.meta.url));

/** What each expected failure must say: the reason its entry in the YAML gives. */
const REASONS: Array<[RegExp, RegExp]> = [
  [/^(tools-call-|elicitation-)/, /Unknown tool "(test_|json_schema)/],
  [/^prompts-get-/, /Unknown prompt "test_/],
  [/^resources-(read-|templates-read)/, /No resource at test:\/\//],
  [/^resources-(un)?subscribe$/, /Method not found/],
  [/^server-sse-multiple-streams$/, /session ID/i],
];

/** A Node.js the suite runs on: this one from 22 on, else the image's major (scripts/node-of-major.sh, cached). */
function suiteNode(): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const script = fileURLToPath(new URL('../../scripts/node-of-major.sh', import.meta.url));
  return join(execFileSync('bash', [script, '24'], { encoding: 'utf8' }).trim(), 'node');
}

interface Check {
  id: string;
  name: string;
  description: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO';
  errorMessage?: string;
}

let service: TestService;
let results: string;
before(async () => {
  service = await startTestService();
  results = await mkdtemp(join(tmpdir(), 'vitae-conformance-'));
});
after(async () => {
  await service.stop();
  await rm(results, { recursive: true, force: true });
});

describe('the MCP conformance suite', () => {
  it('passes every scenario of /mcp but the expected failures, each failing for its stated reason', async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const args = [SUITE, 'server', '--url', `${service.url}/mcp`, '--expected-failures', EXPECTED, '-o', results];
      execFile(suiteNode(), args, { maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } }, (error, out, err) =>
        resolve({ code: error ? ((error.code as number | undefined) ?? 1) : 0, stdout: out, stderr: err }),
      );
    });
    const summary = stdout.slice(stdout.indexOf('=== SUMMARY ==='));
    assert.equal(code, 0, `the suite failed:\n${summary}\n${stderr}`);
    assert.match(stdout, /Baseline check passed: all failures are expected/);

    // What each scenario found, from its checks.json.
    const scenarios = new Map<string, Check[]>();
    for (const dir of await readdir(results)) {
      const name = dir.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
      scenarios.set(name, JSON.parse(await readFile(join(results, dir, 'checks.json'), 'utf8')) as Check[]);
    }
    const expected = new Set((parse(await readFile(EXPECTED, 'utf8')) as { server: string[] }).server);
    assert.ok(scenarios.size >= 25, `the suite ran ${scenarios.size} scenarios`);
    for (const name of expected) assert.ok(scenarios.has(name), `${name} (in the expected failures) is still a scenario of the suite`);

    for (const [name, checks] of scenarios) {
      const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      if (!expected.has(name)) {
        // A pass is a scenario that checked something: none failed and at least one succeeded.
        assert.ok(
          checks.some((c) => c.status === 'SUCCESS'),
          `${name} checked nothing: ${JSON.stringify(checks)}`,
        );
        continue;
      }
      const reason = REASONS.find(([scenario]) => scenario.test(name))?.[1];
      assert.ok(reason, `${name}: the YAML lists it without a reason this test knows`);
      for (const check of bad) {
        const said = `${check.errorMessage ?? ''} ${check.name} ${check.description}`;
        assert.match(said, reason, `${name} fails for another reason than its entry gives: ${said}`);
      }
    }
    for (const name of [
      'server-initialize',
      'ping',
      'tools-list',
      'resources-list',
      'prompts-list',
      'completion-complete',
      'logging-set-level',
      'dns-rebinding-protection',
    ]) {
      assert.ok(scenarios.has(name) && !expected.has(name), `${name} is run and passes`);
    }
  });
});
