// The operation list: the single source of truth for REST routes, OpenAPI, MCP tools, CLI commands and the
// agent's tools. Its type names every operation, so the implementation is checked against it by name.
import type { AnyOperation } from './define.ts';
import { publicReadOperations } from './public.ts';
import { adminOperations } from './admin.ts';
import { askSubject, chat, transcribe } from './agent.ts';
import { matchRole } from './match.ts';
import { editorOperations } from './editors.ts';
import { adminUploadMedia } from './media.ts';

export const operations = [
  ...publicReadOperations,
  askSubject,
  chat,
  transcribe,
  matchRole,
  ...adminOperations,
  adminUploadMedia,
  ...editorOperations,
] as const;

export type Operation = (typeof operations)[number];
export type OperationName = Operation['name'];
export type OperationNamed<N extends OperationName> = Extract<Operation, { name: N }>;

export const operationsByName: ReadonlyMap<string, AnyOperation> = new Map(operations.map((op) => [op.name, op]));

/** The definition of an operation by name, typed. */
export function operationNamed<N extends OperationName>(name: N): OperationNamed<N> {
  return operationsByName.get(name) as OperationNamed<N>;
}

export * from './define.ts';
export * from './errors.ts';
export * from './issues.ts';
export * from './shared.ts';
