// The deployment kit agrees with the code: .env.example lists every variable the configuration reads (with the
// same default), and compose.yaml points the service at its Redis.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../operations/server/config.server.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** NAME=value lines of .env.example. */
const example = new Map(
  read('.env.example')
    .split('\n')
    .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
);

test('.env.example lists every variable of the configuration, each with a comment', () => {
  const schema = read('operations/server/config.server.ts');
  const variables = [...schema.matchAll(/^\s{4}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);
  assert.ok(variables.length >= 20, `found ${variables.length} variables in config.server.ts`);
  const missing = variables.filter((name) => !example.has(name));
  assert.deepEqual(missing, [], 'add these to .env.example');
  const lines = read('.env.example').split('\n');
  for (const [name] of example) {
    const index = lines.findIndex((line) => line.startsWith(`${name}=`));
    assert.match(lines[index - 1] ?? '', /^# \S/, `${name} has a one-line comment above it`);
  }
});

test('.env.example, loaded as it is, gives the defaults', () => {
  const env = Object.fromEntries(example);
  const fromExample = loadConfig(env);
  const defaults = loadConfig({});
  for (const key of Object.keys(defaults) as Array<keyof typeof defaults>) {
    assert.deepEqual(fromExample[key], defaults[key], `${key}: .env.example says ${String(fromExample[key])}, the default is ${String(defaults[key])}`);
  }
});

test('compose.yaml gives the service its Redis and a data volume; the image listens on every interface', () => {
  const compose = read('compose.yaml');
  assert.match(compose, /RATE_LIMIT_STORE: redis:\/\/redis:6379/);
  assert.match(compose, /vitae-data:\/data/);
  assert.match(compose, /^\s{2}redis:/m);
  const dockerfile = read('Dockerfile');
  assert.match(dockerfile, /HOST=0\.0\.0\.0/);
  assert.match(dockerfile, /DATA_DIR=\/data/);
  assert.match(dockerfile, /MALLOC_ARENA_MAX=2/);
  assert.match(dockerfile, /^USER node$/m);
  assert.match(dockerfile, /^HEALTHCHECK[\s\S]*?\/api\/health/m);
});
