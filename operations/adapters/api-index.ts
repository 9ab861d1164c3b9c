// `GET /api/v1`: where a developer who types the API's address lands. It points at the description (/openapi.json),
// the MCP server and the health check, and lists the public routes, read from the operation list so it cannot drift.
import { z } from 'zod';
import { offeredOn } from '../contract/define.ts';
import { operations } from '../contract/index.ts';
import { limits } from '../contract/limits.ts';
import { PlainText, Url } from '../contract/shared.ts';

export const API_INDEX_PATH = '/api/v1';

const TITLE_END = ' — Vitae API';
const publicRoutes = operations.filter((op) => op.auth === 'public' && offeredOn(op, 'rest'));
const names = publicRoutes.map((op) => op.name) as [string, ...string[]];
const Link = (what: string) => Url.describe(what);

/** The index's shape, as OpenAPI describes the endpoint: every path and operation it can name, from the list. */
export const ApiIndexSchema = z.object({
  name: PlainText(limits.name + TITLE_END.length),
  openapi: Link('The OpenAPI 3.1 document of every route'),
  mcp: Link('The public MCP server (Streamable HTTP): the same operations as tools'),
  health: Link('Liveness and configuration'),
  routes: z
    .array(
      z.object({
        method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
        path: z.enum([...new Set(publicRoutes.map((op) => op.rest.path))] as [string, ...string[]]).describe('Path template, `{param}` for a path parameter'),
        operation: z.enum(names).describe('The operationId in /openapi.json'),
        summary: PlainText(limits.title),
        mcpTool: z.enum(names).optional().describe('The MCP tool of the same operation, when it is one'),
      }),
    )
    .max(publicRoutes.length)
    .describe('The public routes, one per operation'),
});

export const apiIndexSchema: Record<string, unknown> = (({ $schema: _s, ...schema }) => schema)(z.toJSONSchema(ApiIndexSchema, { io: 'output' }));

export type ApiIndex = z.output<typeof ApiIndexSchema>;

/** The index of the API served at `base` for the site named `site`. */
export function apiIndex(base: string, site: string): ApiIndex {
  const url = (path: string) => new URL(path, base).href;
  return {
    name: `${site}${TITLE_END}`,
    openapi: url('/openapi.json'),
    mcp: url('/mcp'),
    health: url('/api/health'),
    routes: publicRoutes.map((op) => ({
      method: op.rest.method,
      path: op.rest.path,
      operation: op.name,
      summary: op.summary,
      ...(offeredOn(op, 'mcp') ? { mcpTool: op.name } : {}),
    })),
  };
}
