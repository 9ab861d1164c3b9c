// The contract types its implementation: TypeScript refuses a handler whose output does not fit the
// operation's output schema, a handler whose input is read as something it is not, a missing handler, and a refusal
// (`ctx.refuse`, or a helper given it) with an error its operation does not declare.
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
import { implement, type Handlers, type HandlerOf, type Refuse } from '${root}operations/server/implement.server.ts';
import type { getBrief } from '${root}operations/contract/public.ts';
const options = { rateLimits: { consume: async () => ({ headers: {} }) }, checkOutputs: true, logError: () => {} };
const brief = { markdown: '# Hi', questions: [], locale: 'en' as const, translated: true };
const rest: Omit<Handlers<typeof publicReadOperations>, 'get_brief'> = {
  list_experience: () => ({ entries: [], total: 0 }),
  get_entry: (input, { refuse }) => { throw refuse('not_found', \`No entry \${input.slug}\`); },
  list_lenses: () => ({ lenses: [] }),
  get_lens: (input, { refuse }) => { throw refuse('not_found', \`No lens \${input.id}\`); },
  search_subject: (input) => ({ query: input.query, results: [] }),
  get_document: () => { throw new Error('none'); },
  get_site: () => { throw new Error('none'); },
};
`;

const cases = {
  good: `${preamble}\nexport const ok = implement(publicReadOperations, { ...rest, get_brief: () => brief }, options);
// get_brief declares bad_request alone: refusing with it compiles, with not_found does not.
export const refusing: HandlerOf<typeof getBrief> = (_input, { refuse }) => { throw refuse('bad_request', 'no'); };
// @ts-expect-error: not_found is not among get_brief's errors
export const undeclared: HandlerOf<typeof getBrief> = (_input, { refuse }) => { throw refuse('not_found', 'none'); };
`,
  wrongOutput: `${preamble}\nexport const bad = implement(publicReadOperations, { ...rest, get_brief: () => ({ nope: 1 }) }, options);\n`,
  wrongInput: `${preamble}\nexport const bad = implement(publicReadOperations, { ...rest, get_brief: (input) => ({ ...brief, markdown: input.slug }) }, options);\n`,
  missing: `${preamble}\nexport const bad = implement(publicReadOperations, { ...rest }, options);\n`,
  undeclaredError: `${preamble}\nexport const bad = implement(publicReadOperations, { ...rest, get_brief: (_input, { refuse }) => { throw refuse('repo_error', 'none'); } }, options);\n`,
  undeclaredByHelper: `${preamble}
const missingEntry = (slug: string, refuse: Refuse<'not_found'>) => refuse('not_found', \`No entry \${slug}\`);
export const bad = implement(publicReadOperations, { ...rest, get_brief: (input, { refuse }) => { throw missingEntry(input.locale, refuse); } }, options);
`,
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
  it('does not compile with a wrong output, a wrong input, a missing handler or an undeclared error, and compiles with the right ones', async () => {
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
      assert.match(errorsIn('undeclaredError').join('\n'), /error TS\d+:.*"repo_error"/s, report);
      assert.match(errorsIn('undeclaredByHelper').join('\n'), /error TS\d+:.*"not_found"/s, report);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
