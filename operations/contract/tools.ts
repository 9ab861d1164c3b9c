// An operation described as a tool, for MCP hosts and for the site's own agent: its name, a title, a
// description, and self-contained JSON Schemas of its input and output made from the very zod schemas
// that validate it. Computed once per operation (schemas never change at run time).
import { z } from 'zod';
import type { AnyOperation } from './define.ts';

export type ObjectSchema = { type: 'object'; [key: string]: unknown };

export interface ToolDescription {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  outputSchema: ObjectSchema;
  /** MCP tool annotations: hints for a host deciding whether to ask before calling. */
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

const inlineAll = z.registry(); // tool schemas are self-contained: no references to shared definitions

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): ObjectSchema {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, { io, metadata: inlineAll, unrepresentable: 'any' } as Parameters<
    typeof z.toJSONSchema
  >[1]) as Record<string, unknown>;
  return rest as ObjectSchema;
}

const described = new WeakMap<AnyOperation, ToolDescription>();

export function describeTool(op: AnyOperation): ToolDescription {
  let tool = described.get(op);
  if (!tool) {
    tool = {
      name: op.name,
      title: op.summary,
      description: [op.summary + '.', op.description].filter(Boolean).join(' '),
      inputSchema: jsonSchema(op.input, 'input'),
      outputSchema: jsonSchema(op.output, 'output'),
      annotations: {
        title: op.summary,
        readOnlyHint: !op.effect,
        destructiveHint: op.effect?.destructive ?? false,
        // A change says so itself; a read is idempotent by nature, unless a model writes its answer: the same
        // question, asked again, gets another answer.
        idempotentHint: op.effect?.idempotent ?? !op.answeredByModel,
        openWorldHint: op.answeredByModel ?? false,
      },
    };
    described.set(op, tool);
  }
  return tool;
}

export const describeTools = (ops: readonly AnyOperation[]): ToolDescription[] => ops.map(describeTool);
