// Every operation's handler, by operation name, and `invoke`: the one way any surface runs an operation
// (parse the input with the operation's schema, run the handler). REST, MCP, the site and the agent use it.
import { z } from 'zod';
import { AppError, type Problem } from '../contract/errors.ts';
import { operations, type AnyOperation } from '../contract/index.ts';
import { describeIssue, pointerOf } from '../content/front-matter.ts';
import type { Handler, OperationContext } from './context.server.ts';
import { publicHandlers } from './public.server.ts';
import { adminHandlers } from './admin.server.ts';
import { askHandlers } from './ask.server.ts';

export const handlers: Record<string, Handler> = { ...publicHandlers, ...askHandlers, ...adminHandlers };

for (const op of operations) {
  if (!handlers[op.name]) throw new Error(`Operation ${op.name} has no handler`);
}

/** Problems for a failed input parse: one per invalid field, naming the allowed values. */
export function inputProblems(error: z.ZodError, rename: Record<string, string> = {}): Problem[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((k, i) => (i === 0 && typeof k === 'string' && rename[k] ? rename[k] : k));
    return { pointer: pointerOf(path as PropertyKey[]), message: describeIssue({ ...issue, path } as z.core.$ZodIssue) };
  });
}

export function parseInput(op: AnyOperation, raw: unknown, rename?: Record<string, string>): Record<string, unknown> {
  const result = op.input.safeParse(raw ?? {});
  if (!result.success) {
    const errors = inputProblems(result.error, rename);
    throw new AppError('bad_request', `Invalid input for ${op.name}: ${errors.map((e) => e.message).join('; ')}`, { errors });
  }
  return result.data as Record<string, unknown>;
}

export async function invoke(op: AnyOperation, raw: unknown, ctx: OperationContext): Promise<unknown> {
  return handlers[op.name]!(parseInput(op, raw), ctx);
}
