// The operation list: the single source of truth for REST routes, OpenAPI, MCP tools and CLI commands.
import type { AnyOperation } from './define.ts';
import { publicReadOperations } from './public.ts';
import { adminOperations } from './admin.ts';
import { askSubject } from './agent.ts';

export const operations: readonly AnyOperation[] = [...publicReadOperations, askSubject, ...adminOperations];

export const operationsByName: ReadonlyMap<string, AnyOperation> = new Map(operations.map((op) => [op.name, op]));

export * from './define.ts';
export * from './errors.ts';
export * from './shared.ts';
