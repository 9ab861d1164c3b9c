// The contract types its implementation: TypeScript refuses a handler whose output does not fit the
// operation's output schema, a handler whose input is read as something it is not, and a missing handler.
// The compiler runs on small files that use `implement` the way handlers.server.ts does.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const preamble = `
import { publicReadOperations } from '${root}operations/contract/public.ts';
import { implement, type Handlers } from '${root}operations/server/implement.server.ts';
const options = { rateLimits: { consume: async () => ({ headers: {} }) }, checkOutputs: true, logError: () => {} };
const brief = { markdown: '# Hi', questions: [], locale: 'en' as const, translated: true };
const rest: Omit<Handlers<typeof publicReadOperations>, 'get_brief'> = {
  list_experience: () => ({ entries: [], total: 0 }),
  get_entry: () => { throw new Error('none'); },
  list_lenses: () => ({ lenses: [] }),
  search_subject: (input) => ({ query: input.query, results: [] }),
  get_document: () => { throw new Error('none'); },
  get_site: () => { throw new Error('none'); },
};
`;

const cases = {
  good: `${preamble}\nexport const ok = implement(publicReadOperations, { ...rest, get_brief: () => brief }, options);\n`,
  wrongOutput: `${preamble}\nexport const bad = implement(publicReadOperations, { ...rest, get_brief: () => ({ nope: 1 }) }, options);\n`,
  wrongInput: `${preamble}\nexport const bad = implement(publicReadOperations, { ...rest, get_brief: (input) => ({ ...brief, markdown: input.slug }) }, options);\n`,
  missing: `${preamble}\nexport const bad = implement(publicReadOperations, { ...rest }, options);\n`,
};

function typecheck(dir: string): Promise<string> {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: join(root, 'tsconfig.json'),
      compilerOptions: { typeRoots: [join(root, 'node_modules/@types')], baseUrl: root },
      include: Object.keys(cases).map((name) => `${name}.ts`),
    }),
  );
  return new Promise((resolve) => {
    execFile(join(root, 'node_modules/.bin/tsc'), ['--noEmit', '-p', join(dir, 'tsconfig.json')], { cwd: dir, maxBuffer: 16 * 1024 * 1024 }, (_error, stdout) =>
      resolve(stdout),
    );
  });
}

describe('implement(operations, handlers)', () => {
  it('does not compile with a wrong output, a wrong input or a missing handler, and compiles with the right ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vitae-typecheck-'));
    try {
      for (const [name, text] of Object.entries(cases)) writeFileSync(join(dir, `${name}.ts`), text);
      const report = await typecheck(dir);
      // Each diagnostic is a line naming the file, then its indented elaboration.
      const errorsIn = (name: string) => report.split(/\n(?=\S)/).filter((block) => block.startsWith(`${name}.ts(`));
      assert.deepEqual(errorsIn('good'), [], report);
      assert.match(errorsIn('wrongOutput').join('\n'), /error TS\d+:.*nope/s, report);
      assert.match(errorsIn('wrongInput').join('\n'), /error TS\d+:.*slug/s, report);
      assert.match(errorsIn('missing').join('\n'), /error TS\d+:.*get_brief/s, report);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
