// The CLI is one more surface of the operation list, and must agree with it in both directions: every
// operation has exactly its command, every command (but `mcp` and `completion`) is an operation.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { offeredOn, operations } from '../operations/contract/index.ts';
import { exitCodeMeanings } from './exit-codes.ts';
import { flagName } from './fields.ts';
import { formatters } from './format.ts';
import { bindPositional } from './input.ts';
import { createProgram, localCommands, operationOf } from './program.ts';
import { parseUsage } from './usage.ts';

const silent = { env: {}, stdin: process.stdin, stdout: { write: () => true }, stderr: { write: () => true } };

/** Every leaf command of the program with its command words. */
function leaves(command: Command, path: string[] = []): Array<{ path: string[]; command: Command }> {
  if (!command.commands.length) return [{ path, command }];
  return command.commands.flatMap((sub) => leaves(sub, [...path, sub.name()]));
}

describe('the CLI and the operation list', () => {
  const program = createProgram(silent);
  const commands = leaves(program);

  it('has a command for every operation offered on the CLI, at the words of its `cli` usage, and none for the others', () => {
    for (const op of operations) {
      const found = commands.filter((c) => operationOf(c.command) === op);
      if (!offeredOn(op, 'cli')) {
        assert.equal(found.length, 0, `${op.name} is not offered on the CLI`);
        continue;
      }
      const path = parseUsage(op.cli!).path;
      assert.equal(found.length, 1, `${op.name} has one command`);
      assert.deepEqual(found[0]!.path, path, op.name);
    }
  });

  it('has no command without an operation, except the local ones', () => {
    for (const { path, command } of commands) {
      if (operationOf(command)) continue;
      assert.ok((localCommands as readonly string[]).includes(path.join(' ')), `vitae ${path.join(' ')} runs no operation`);
    }
    assert.deepEqual(
      commands
        .filter((c) => !operationOf(c.command))
        .map((c) => c.path.join(' '))
        .sort(),
      [...localCommands].sort(),
    );
  });

  it('takes the positionals of the usage and an option for every other input field', () => {
    for (const { command } of commands) {
      const op = operationOf(command);
      if (!op) continue;
      const usage = parseUsage(op.cli!);
      assert.deepEqual(
        command.registeredArguments.map((a) => a.name()),
        usage.positionals.map((p) => p.name),
        op.name,
      );
      const filled = new Set(usage.positionals.flatMap((p) => bindPositional(op, p).fields));
      const options = new Set(command.options.map((o) => o.long));
      for (const field of Object.keys(op.input.shape)) {
        if (!filled.has(field)) assert.ok(options.has(`--${flagName(field)}`), `${op.name}: --${flagName(field)}`);
      }
    }
  });

  it('offers the enum values of the schema as choices', () => {
    for (const { command } of commands) {
      const op = operationOf(command);
      if (!op) continue;
      for (const option of command.options) {
        const field = op.input.shape[option.attributeName()] as { options?: unknown[]; def: { innerType?: { options?: unknown[] } } } | undefined;
        const values = field?.options ?? field?.def.innerType?.options;
        if (values) assert.deepEqual(option.argChoices, values, `${op.name} ${option.long}`);
      }
    }
  });

  it('has a human formatter for the output shape of every operation offered on the CLI', () => {
    for (const op of operations.filter((o) => offeredOn(o, 'cli'))) {
      const id = op.output.meta()?.id as string;
      assert.ok(formatters[id], `no formatter for ${id} (${op.name}); add one to cli/format.ts`);
    }
  });

  it('documents the same exit codes in the README as in --help', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const [code, meaning] of exitCodeMeanings) {
      const label = meaning.split(':')[0]!;
      const row = new RegExp(`^\\|\\s*${code}\\s*\\|\\s*${label}\\b`, 'im');
      assert.ok(row.test(readme), `README has no exit code row "| ${code} | ${label}…"`);
    }
  });
});
