// `/openapi.json` checked with the linters API teams use: Redocly's `recommended` ruleset, Spectral's `oas`
// ruleset and Spectral's OWASP API Security Top 10 ruleset, on the document the running service serves
// (operations and the endpoints beside them), both for a local run (BASE_URL on loopback: the relative server
// `/`) and for a deployed site (its own BASE_URL). Any problem a linter reports, error or warning (or a Spectral
// hint), fails the test. The OWASP rules that assume what this API deliberately does not do are turned off only
// where they do not apply, each for the reason `owaspExceptions` gives.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import spectralCore, { type RulesetDefinition } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import owasp from '@stoplight/spectral-owasp-ruleset';
import { operations } from '../contract/index.ts';
import { startTestService, type TestService } from '../../testing/service.ts';

const { Spectral, Document, Ruleset } = spectralCore;
type Json = Record<string, any>;

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
  return described(await linter.run(new Document(source, spectralParsers.Json, 'openapi.json')));
}

/** The OWASP ruleset (as `extends: "@stoplight/spectral-owasp-ruleset"` does), with `owaspExceptions`. */
async function spectralOwasp(source: string): Promise<string[]> {
  const linter = new Spectral();
  const exceptions = owaspExceptions(JSON.parse(source));
  // Overrides name places in a file relative to the ruleset's: both sit in one (virtual) folder.
  const ruleset = new Ruleset(
    {
      extends: [[owasp as RulesetDefinition, 'recommended']],
      overrides: exceptions.map(({ rule, pointers }) => ({ files: pointers.map((p) => `openapi.json${p}`), rules: { [rule]: 'off' } })),
    },
    { severity: 'recommended', source: '/vitae/.spectral.json' },
  );
  linter.setRuleset(ruleset);
  return described(await linter.run(new Document(source, spectralParsers.Json, '/vitae/openapi.json')));
}

function described(results: Awaited<ReturnType<InstanceType<typeof Spectral>['run']>>): string[] {
  const severity = ['error', 'warning', 'info', 'hint'];
  return results.map((r) => `${severity[r.severity]} ${r.code} at /${r.path.join('/')}: ${r.message}`);
}

/** A JSON pointer as Spectral writes one (a URI fragment). */
const pointer = (...path: string[]) => `#/${path.map((segment) => encodeURIComponent(segment.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/')}`;

/**
 * Where an OWASP rule assumes what this API deliberately does not do, and why; everywhere else every rule holds.
 * Made from the operation list (and, for the endpoints beside it, from what they declare), so that a new operation
 * is held to every rule unless its definition says otherwise.
 */
export function owaspExceptions(doc: Json): Array<{ rule: string; why: string; pointers: string[] }> {
  const places = Object.entries<Json>(doc.paths).flatMap(([path, methods]) =>
    Object.entries<Json>(methods).map(([method, spec]) => {
      const op = operations.find((o) => o.rest.path === path && o.rest.method.toLowerCase() === method);
      return { at: pointer('paths', path, method), method, spec, public: op ? op.auth === 'public' : !spec.security?.length, op };
    }),
  );
  const publicOnes = places.filter((p) => p.public);
  const unlimited = places.filter((p) => !p.op?.rateLimit);
  const strings: string[] = [];
  const walk = (node: unknown, path: string[]) => {
    if (!node || typeof node !== 'object') return;
    const schema = node as Json;
    if ((schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'))) && schema.contentMediaType) strings.push(pointer(...path));
    for (const [key, value] of Object.entries(schema)) walk(value, [...path, key]);
  };
  walk(doc, []);
  return [
    {
      rule: 'owasp:api2:2023-read-restricted',
      why: 'the profile and the service’s health are public by design: anyone may read them, without an account',
      pointers: publicOnes.filter((p) => p.method === 'get').map((p) => p.at),
    },
    {
      rule: 'owasp:api2:2023-write-restricted',
      why: 'a public operation that changes nothing takes POST only to carry its input (ask_subject’s question)',
      pointers: publicOnes.filter((p) => p.method !== 'get' && p.op && !p.op.effect).map((p) => p.at),
    },
    {
      rule: 'owasp:api8:2023-define-error-responses-401',
      why: 'a public operation checks no credentials, so it never answers 401',
      pointers: publicOnes.map((p) => p.at),
    },
    {
      rule: 'owasp:api4:2023-rate-limit-responses-429',
      why: 'only rate-limited operations (`rateLimit`) and those that check a credential (admin: its failures are throttled) answer 429',
      pointers: unlimited.filter((p) => p.public).map((p) => p.at),
    },
    {
      rule: 'owasp:api4:2023-rate-limit',
      why:
        'budgets are per operation, not a gateway’s on every request: an operation without one sends no RateLimit headers, and a ' +
        'rate-limited one sends them on the answers that spent the budget (its successes and its 429), not on a request refused before it',
      pointers: [
        ...unlimited.map((p) => p.at),
        ...places
          .filter((p) => p.op?.rateLimit)
          .flatMap((p) =>
            Object.keys(p.spec.responses)
              .filter((status) => status.startsWith('4') && status !== '429')
              .map((status) => `${p.at}/responses/${status}`),
          ),
      ],
    },
    {
      rule: 'owasp:api8:2023-define-cors-origin',
      why: 'the admin API is not offered to other origins: its answers carry no CORS header (the console calls it from the site itself)',
      pointers: places.filter((p) => !p.public).map((p) => p.at),
    },
    {
      rule: 'owasp:api8:2023-define-error-validation',
      why: 'an endpoint that takes no input (no parameter, no body) has nothing to refuse with 400 or 422',
      pointers: places.filter((p) => !p.spec.parameters?.length && !p.spec.requestBody).map((p) => p.at),
    },
    {
      rule: 'owasp:api4:2023-string-restricted',
      why: 'text for people (titles, Markdown, messages, diffs, file contents) has no format or pattern; it says its media type instead (`contentMediaType`)',
      pointers: strings,
    },
  ].filter((e) => e.pointers.length);
}

describe('/openapi.json passes the API linters', () => {
  for (const run of ['local', 'deployed'] as const) {
    it(`Redocly recommended: no error, no warning (${run})`, async () => {
      assert.deepEqual(await redocly(served[run]), []);
    });
    it(`Spectral oas: no error, no warning (${run})`, async () => {
      assert.deepEqual(await spectral(served[run]), []);
    });
    it(`Spectral OWASP API Security: no error, no warning, but where a rule does not apply (${run})`, async () => {
      assert.deepEqual(await spectralOwasp(served[run]), []);
    });
  }

  it('excepts from the OWASP rules only what they do not apply to: no admin operation from who may call it, every string that is not text', () => {
    const doc = JSON.parse(served.deployed);
    const access = ['read-restricted', 'write-restricted', 'define-error-responses-401', 'rate-limit-responses-429'].map(
      (rule) => `owasp:api${rule.includes('restricted') ? 2 : rule.includes('401') ? 8 : 4}:2023-${rule}`,
    );
    for (const { rule, pointers } of owaspExceptions(doc)) {
      if (!access.includes(rule)) continue;
      for (const at of pointers) assert.doesNotMatch(at, /~1api~1admin~1/, `${rule} holds for every admin operation (${at})`);
    }
    // Strings with a shape declare it: slugs, shas, addresses, times.
    const { Site, EntryShort, CommitResult } = doc.components.schemas;
    assert.ok(EntryShort.properties.slug.pattern && EntryShort.properties.url.format === 'uri');
    assert.ok(Site.properties.content.properties.builtAt.format === 'date-time' && CommitResult.properties.commit.properties.sha.pattern);
  });

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
    // And the OWASP rules: a string without a limit, a list without one, an operation without its 500 or its 429.
    delete doc.components.schemas.Problem.properties.message.maxLength;
    delete doc.components.schemas.EntryList.properties.entries.maxItems;
    delete doc.paths['/api/admin/files'].get.responses['500'];
    delete doc.paths['/api/v1/ask'].post.responses['429'];
    const fromOwasp = (await spectralOwasp(JSON.stringify(doc))).join('\n');
    for (const rule of ['string-limit', 'array-limit', 'define-error-responses-500', 'rate-limit-responses-429'])
      assert.match(fromOwasp, new RegExp(`owasp:api\\d:2023-${rule}`), rule);
  });
});
