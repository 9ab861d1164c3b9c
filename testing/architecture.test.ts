// The floors of the house hold: no import circles, no upward imports, surfaces apart, test support out of
// production code (the rules are in .dependency-cruiser.cjs). A fixture with known violations shows the
// rules can fail.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const depcruise = join(root, 'node_modules/.bin/depcruise');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function cruise(cwd: string, targets: string[]): Promise<Violation[]> {
  return new Promise((resolve, reject) => {
    execFile(
      depcruise,
      [...targets, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
      { cwd, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        // depcruise exits non-zero when it finds violations; the JSON still says which.
        try {
          resolve((JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations);
        } catch {
          reject(error ?? new Error(`dependency-cruiser printed no report: ${stderr}`));
        }
      },
    );
  });
}

const describeViolation = (v: Violation) => `${v.rule.name}: ${v.from} → ${v.to}`;

describe('architecture', () => {
  it('has no import circles, no upward imports and no test support in production code', async () => {
    const violations = await cruise(root, ['operations', 'app', 'cli', 'server.ts', 'testing']);
    assert.deepEqual(violations.map(describeViolation), []);
  });

  it('would report an upward import, a circle, a surface reaching the server floor and production code importing test support', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vitae-floors-'));
    try {
      cpSync(join(root, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
      cpSync(join(root, 'tsconfig.json'), join(dir, 'tsconfig.json'));
      const files: Record<string, string> = {
        'operations/contract/list.ts': "import { handler } from '../server/handler.ts';\nexport const list = [handler];\n",
        'operations/server/handler.ts': "import { list } from '../contract/list.ts';\nexport const handler = () => list;\n",
        'app/page.ts': "import { handler } from '../operations/server/handler.ts';\nexport const page = handler;\n",
        'cli/main.ts': "import { fixture } from '../testing/fixture.ts';\nexport const main = fixture;\n",
        'testing/fixture.ts': 'export const fixture = 1;\n',
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      const rules = new Set((await cruise(dir, ['operations', 'app', 'cli', 'testing'])).map((v) => v.rule.name));
      for (const rule of ['no-circular', 'floor-contract', 'surfaces-do-not-reach-the-server-floor', 'production-does-not-import-test-support']) {
        assert.ok(rules.has(rule), `${rule} was not reported (got ${[...rules].join(', ')})`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
