// `/openapi.json` checked with the linters API teams use: Redocly's `recommended` ruleset and Spectral's `oas`
// ruleset, on the document the running service serves (operations and the endpoints beside them), both for a
// local run (BASE_URL on loopback: the relative server `/`) and for a deployed site (its own BASE_URL).
// Any problem either reports, error or warning (or a Spectral hint), fails the test.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import spectralCore, { type RulesetDefinition } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { startTestService, type TestService } from '../../testing/service.ts';

const { Spectral, Document } = spectralCore;

let service: TestService;
const served: Record<'local' | 'deployed', string> = { local: '', deployed: '' };
before(async () => {
  // `main` on a loopback BASE_URL (a local run), `dev` on a public host (what a deployment looks like).
  service = await startTestService({ ADMIN_TOKEN: 'openapi-lint-token-0123456789', BASE_URL: 'http://localhost:3000', DEV_URL: 'https://dev.vitae.test' });
  served.local = await (await fetch(`${service.url}/openapi.json`)).text();
  served.deployed = await (await fetch(`${service.devUrl}/openapi.json`)).text();
});
after(() => service.stop());

/** One line per problem, so a failure says what to fix and where. */
async function redocly(source: string): Promise<string[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
  return problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
}

async function spectral(source: string): Promise<string[]> {
  const linter = new Spectral();
  // As `extends: spectral:oas` in a .spectral.yaml does: the ruleset's recommended rules.
  linter.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
  const results = await linter.run(new Document(source, spectralParsers.Json, 'openapi.json'));
  const severity = ['error', 'warning', 'info', 'hint'];
  return results.map((r) => `${severity[r.severity]} ${r.code} at /${r.path.join('/')}: ${r.message}`);
}

describe('/openapi.json passes the API linters', () => {
  for (const run of ['local', 'deployed'] as const) {
    it(`Redocly recommended: no error, no warning (${run})`, async () => {
      assert.deepEqual(await redocly(served[run]), []);
    });
    it(`Spectral oas: no error, no warning (${run})`, async () => {
      assert.deepEqual(await spectral(served[run]), []);
    });
  }

  it('names no localhost server: a local run says `/`, a deployed one its BASE_URL', () => {
    assert.deepEqual(
      JSON.parse(served.local).servers.map((s: { url: string }) => s.url),
      ['/'],
    );
    assert.deepEqual(
      JSON.parse(served.deployed).servers.map((s: { url: string }) => s.url),
      ['https://dev.vitae.test'],
    );
  });

  it('catches what it should: a document with the faults the linters used to report fails both', async () => {
    // The linters are really run (not configured away): break the served document the way it once was.
    const doc = JSON.parse(served.deployed);
    doc.servers = [{ url: 'http://localhost:3000' }];
    delete doc.info.license;
    delete doc.info.contact;
    const health = doc.paths['/api/health'].get;
    delete health.security;
    delete health.description;
    delete health.responses['405'];
    doc.components.schemas.Unused = { type: 'object' };
    const source = JSON.stringify(doc);
    const fromRedocly = (await redocly(source)).join('\n');
    for (const rule of ['no-server-example.com', 'info-license', 'security-defined', 'operation-4xx-response', 'no-unused-components'])
      assert.match(fromRedocly, new RegExp(rule.replace('.', '\\.')), rule);
    const fromSpectral = (await spectral(source)).join('\n');
    for (const rule of ['info-contact', 'operation-description', 'oas3-unused-component']) assert.match(fromSpectral, new RegExp(rule), rule);
  });
});
