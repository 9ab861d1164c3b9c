// `npm test`: every unit and integration test (node's test runner through tsx), then the browser tests.
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

function find(dir, pattern, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) find(full, pattern, out);
    else if (pattern.test(entry.name)) out.push(full);
  }
  return out;
}

const only = process.argv.slice(2);
const files = ['operations', 'cli', 'app', 'bench', 'testing'].flatMap((d) => find(d, /\.test\.tsx?$/)).filter((f) => !only.length || only.some((o) => f.includes(o)));
const node = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
if (node.status !== 0) process.exit(node.status ?? 1);

const specs = find('e2e', /\.spec\.ts$/);
if (specs.length && !only.length) {
  const e2e = spawnSync('npx', ['playwright', 'test'], { stdio: 'inherit' });
  process.exit(e2e.status ?? 1);
}
