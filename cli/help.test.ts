// `--help` of every command, groups and nested commands included, ends with examples; the examples of an
// operation are written from its definition's valid examples, and each one, run, sends exactly the request
// those examples describe (so the help never shows a command line that does something else).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Command } from 'commander';
import { requestFor } from '../operations/adapters/client.ts';
import { offeredOn, operations } from '../operations/contract/index.ts';
import { commandExtras } from './extras.ts';
import { operationExamples } from './examples.ts';
import { createProgram, runCli } from './program.ts';
import { cleanEnv, runVitaeInProcess } from './run-vitae.ts';
import { userAgent } from './settings.ts';
import { Readable } from 'node:stream';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

let scratch: string;
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'vitae-help-'));
});
after(() => rm(scratch, { recursive: true, force: true }));

const silent = { env: {}, stdin: process.stdin, stdout: { write: () => true }, stderr: { write: () => true } };

/** Every command of the program, groups included, by its words (the hidden __complete aside). */
function allCommands(command: Command, path: string[] = []): string[][] {
  return command.commands.filter((c) => !c.name().startsWith('__')).flatMap((sub) => [[...path, sub.name()], ...allCommands(sub, [...path, sub.name()])]);
}

/** Splits a command line as a POSIX shell would for the words examples use (bare, or single-quoted). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) words.push(match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : match[2]!);
  return words;
}

describe('help', () => {
  it('every command, nested ones included, and the program itself show examples in --help', async () => {
    const paths = [[], ...allCommands(createProgram(silent))];
    assert.ok(paths.some((p) => p.join(' ') === 'admin edit'));
    for (const path of paths) {
      const run = await runVitaeInProcess([...path, '--help']);
      assert.equal(run.code, 0, `${path.join(' ')}: ${run.stderr}`);
      const examples = run.stdout.split('\nExamples:\n')[1];
      assert.ok(examples, `vitae ${path.join(' ')} --help has no examples`);
      const commands = examples.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
      assert.ok(commands.length, path.join(' '));
      for (const line of commands) assert.match(line, /\bvitae\b/, `vitae ${path.join(' ')}: ${line}`);
    }
  });

  it('each example of an operation sends the request of the input it was written from', async () => {
    const url = 'http://vitae.example';
    const token = 'help-token-0123456789';
    let checked = 0;
    for (const op of operations.filter((o) => offeredOn(o, 'cli'))) {
      if (commandExtras[op.name]?.stream) continue; // `ask` streams through its own route
      const examples = op.examples?.valid ?? [];
      for (const [i, example] of examples.entries()) {
        const line = operationExamples(op)[i]!;
        assert.equal(line.summary, example.summary);
        const sent: Array<{ url: string; body?: string }> = [];
        const fetch = (async (input: string, init: RequestInit) => {
          sent.push({ url: input, body: init.body as string | undefined });
          return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
        }) as unknown as typeof globalThis.fetch;
        const words = shellWords(line.command).slice(1);
        // A file argument (the example names it after the path, or `<field>.json`) is a real file holding the example's text.
        const readInto = Object.values(op.cliArgs ?? {}).find((a) => 'readInto' in a);
        if (readInto && 'readInto' in readInto) {
          const input = example.input as Record<string, unknown>;
          const file = join(scratch, `example-${checked}`);
          await writeFile(file, readInto.json ? JSON.stringify(input[readInto.readInto]) : String(input[readInto.readInto]));
          const named = readInto.json ? `${readInto.readInto}.json` : typeof input.path === 'string' ? basename(input.path) : `${readInto.readInto}.txt`;
          words[words.lastIndexOf(named)] = file;
        }
        await runCli([...words, ...(op.effect ? ['--yes'] : []), '--json'], {
          env: cleanEnv({ SITE_URL: url, SITE_ADMIN_TOKEN: token }),
          stdin: Readable.from([]),
          stdout: { write: () => true },
          stderr: { write: () => true },
          fetch,
        });
        const expected = requestFor(op, op.input.parse(example.input), { baseUrl: url, token, userAgent });
        assert.equal(sent.length, 1, line.command);
        const [got, want] = [new URL(sent[0]!.url), new URL(expected.url)];
        assert.equal(got.pathname, want.pathname, line.command);
        assert.deepEqual([...got.searchParams].sort(), [...want.searchParams].sort(), line.command);
        assert.deepEqual(sent[0]!.body ? JSON.parse(sent[0]!.body) : undefined, expected.body ? JSON.parse(expected.body) : undefined, line.command);
        checked++;
      }
    }
    assert.ok(checked >= 10, `only ${checked} examples checked`);
  });
});
