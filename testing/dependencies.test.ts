// The dependency review of SECURITY.md, kept true: every advisory listed there stays either fixed in the resolved
// tree (package-lock.json at or above the fixed version) or unreachable by configuration; redirects built from
// the request stay on this site; the runtime imports nothing that `npm ci --omit=dev` leaves out, and every
// runtime dependency is used.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pageLocale } from '../app/utils/data.server.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  overrides?: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; dev?: boolean }>;
};

/** Every version of a package in the lock file (nested copies included). */
function resolved(name: string): string[] {
  return Object.entries(lock.packages)
    .filter(([path]) => path === `node_modules/${name}` || path.endsWith(`/node_modules/${name}`))
    .map(([, entry]) => entry.version!)
    .filter(Boolean);
}

function atLeast(version: string, minimum: string): boolean {
  const a = version.split(/[.+-]/).slice(0, 3).map(Number);
  const b = minimum.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return true;
}

/** The line a version belongs to: its major, or for 0.x its major and minor (npm's caret rule). */
const lineOf = (version: string) => {
  const [major, minor] = version.split('.');
  return major === '0' ? `0.${minor}` : major!;
};

/**
 * The advisories of SECURITY.md that a version fixes: package → first fixed version of each line it resolves to
 * (path-to-regexp is in the tree twice: 0.1 under Express 4, 8 under the MCP SDK's Express 5).
 */
const fixedBy: Array<{ name: string; fixed: string[]; advisories: string }> = [
  { name: '@remix-run/router', fixed: ['1.23.4'], advisories: 'GHSA-2w69-qvjg-hvjx, GHSA-2j2x-hqr9-3h42, GHSA-jjmj-jmhj-qwj2' },
  { name: 'react-router', fixed: ['6.30.6'], advisories: 'GHSA-2j2x-hqr9-3h42, GHSA-jjmj-jmhj-qwj2' },
  { name: 'react-router-dom', fixed: ['6.30.6'], advisories: 'GHSA-jjmj-jmhj-qwj2' },
  { name: '@remix-run/server-runtime', fixed: ['2.17.3'], advisories: 'CVE-2026-22030' },
  { name: 'path-to-regexp', fixed: ['0.1.13', '8.4.0'], advisories: 'CVE-2026-4867, CVE-2026-4926' },
  { name: 'hono', fixed: ['4.12.21'], advisories: 'CVE-2026-24398, CVE-2026-39409, CVE-2026-44457, CVE-2026-47673…47676' },
];

describe('dependency review (SECURITY.md)', () => {
  for (const { name, fixed, advisories } of fixedBy) {
    test(`${name} resolves to ${fixed.join(' / ')} or later everywhere (${advisories})`, () => {
      const versions = resolved(name);
      assert.ok(versions.length > 0, `${name} is no longer in package-lock.json: update SECURITY.md and this test`);
      for (const version of versions) {
        const fix = fixed.find((f) => lineOf(f) === lineOf(version));
        assert.ok(fix, `${name}@${version} is on a line SECURITY.md has not reviewed: review its advisories, then list its fixed version here`);
        assert.ok(atLeast(version, fix), `${name}@${version} in package-lock.json is below ${fix}`);
      }
    });
  }

  test('turbo-stream 2.x (CVE-2026-34077) is off the request path: Single Fetch stays off while Remix pins it', async () => {
    // Imported by URL so that the type-checked program does not take in remix.config.js.
    const { default: config } = (await import(pathToFileURL(join(root, 'remix.config.js')).href)) as { default: { future?: Record<string, boolean> } };
    const vulnerable = resolved('turbo-stream').filter((v) => !atLeast(v, '3.0.0'));
    if (vulnerable.length) {
      assert.equal(
        config.future?.v3_singleFetch,
        false,
        `turbo-stream ${vulnerable.join(', ')} is installed: Single Fetch (future.v3_singleFetch) would put it on every data request`,
      );
    }
  });

  test('a locale redirect built from the URL stays on this site ("/en//x" is not "//x")', () => {
    for (const path of ['/en//evil.example', '/en///evil.example/x?y=1', '/en/\\evil.example', '/en', '/en/entries?kind=project']) {
      let location: string | null = null;
      try {
        pageLocale({ lang: 'en' }, new Request(`http://localhost${path}`));
      } catch (thrown) {
        location = (thrown as Response).headers.get('Location');
      }
      assert.ok(location, `${path} redirects`);
      assert.match(location, /^\/(?![/\\])/, `${path} → ${location}`);
      assert.equal(new URL(location, 'http://localhost').host, 'localhost', `${path} → ${location}`);
    }
  });
});

/** Bare package names imported (not type-only) by the code that runs in production. */
function runtimeImports(): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx|js|mjs)$/.test(entry.name) && !/\.test\.|\.typecheck\./.test(entry.name)) scan(path);
    }
  };
  const scan = (path: string) => {
    const source = readFileSync(join(root, path), 'utf8');
    const statements = source.matchAll(
      /^\s*(import|export)\s+(type\s+)?[^'";]*?\bfrom\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]|\bimport\.meta\.resolve\(\s*['"]([^'"]+)['"]\s*\)/gm,
    );
    for (const match of statements) {
      if (match[2]) continue; // `import type … from` is erased
      // A package found by path (import.meta.resolve, e.g. the og:image fonts) must be installed in production too.
      const specifier = match[3] ?? match[4] ?? match[5] ?? match[6]!;
      if (specifier.startsWith('.') || specifier.startsWith('node:') || specifier.startsWith('/')) continue;
      const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
      if (!found.has(name)) found.set(name, path);
    }
  };
  for (const dir of ['operations', 'app', 'cli']) walk(dir);
  scan('server.ts');
  scan('scripts/start.mjs');
  return found;
}

describe('runtime dependencies (npm ci --omit=dev)', () => {
  const imports = runtimeImports();

  test('everything the service, the web app and the CLI import is a dependency, not a devDependency', () => {
    const missing = [...imports].filter(([name]) => !(name in pkg.dependencies)).map(([name, where]) => `${name} (imported by ${where})`);
    assert.deepEqual(missing, [], 'move these to "dependencies": an `npm ci --omit=dev` install would not have them');
  });

  test('every dependency is imported by that code (unused ones belong nowhere; build-only ones in devDependencies)', () => {
    const unused = Object.keys(pkg.dependencies).filter((name) => !imports.has(name));
    assert.deepEqual(unused, [], 'remove these from "dependencies" (or import them)');
  });

  test('the production build and start need no dev tooling: npm start and npm run serve go through scripts/start.mjs', () => {
    const scripts = (pkg as unknown as { scripts: Record<string, string> }).scripts;
    // a young generation of 2 MB per semi-space (a V8 flag, so on node's command line): see docs/deploy.md;
    // `exec`: the shell npm runs a script in becomes node, so the SIGTERM a supervisor sends npm (which passes it
    // on to its child) reaches the server and it drains and exits; without it the shell died and node ran on
    assert.equal(scripts.start, 'exec node --max-semi-space-size=2 scripts/start.mjs');
    assert.equal(scripts.serve, 'exec node --max-semi-space-size=2 scripts/start.mjs serve');
    assert.equal(scripts.build, 'node scripts/start.mjs build');
    // the image runs the same command (tini passes signals on itself)
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(join(root, 'Dockerfile'), 'utf8'))?.[1];
    assert.deepEqual(JSON.parse(cmd ?? '[]'), scripts.serve.split(' ').slice(1), "the Dockerfile's CMD is `npm run serve`'s command");
    assert.ok('@remix-run/dev' in pkg.devDependencies, 'the Remix compiler is build tooling');
  });
});
