// Every operation's handler, by operation name, and `invoke`: the one way any surface runs an operation
// (parse the input with the operation's schema, run the handler). REST, MCP, the site and the agent use it.
import { operations, type AnyOperation } from '../contract/index.ts';
import { parseOrThrow } from '../adapters/input.ts';
import type { Handler, OperationContext } from './context.server.ts';
import { publicHandlers } from './public.server.ts';
import { adminHandlers } from './admin.server.ts';
import { askHandlers } from './ask.server.ts';

export const handlers: Record<string, Handler> = { ...publicHandlers, ...askHandlers, ...adminHandlers };

for (const op of operations) {
  if (!handlers[op.name]) throw new Error(`Operation ${op.name} has no handler`);
}

export function parseInput(op: AnyOperation, raw: unknown): Record<string, unknown> {
  return parseOrThrow(op.input, raw ?? {}, { prefix: `Invalid input for ${op.name}: ` }) as Record<string, unknown>;
}

export async function invoke(op: AnyOperation, raw: unknown, ctx: OperationContext): Promise<unknown> {
  return handlers[op.name]!(parseInput(op, raw), ctx);
}
