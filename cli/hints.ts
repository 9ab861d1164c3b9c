// The service words its hints for every surface by REST route ("List the slugs with GET /api/v1/entries.");
// on the command line the same hint names the command that does it (`vitae list`). The route is matched
// against the operation list, so a new operation's hints are translated without a line here.
import type { AnyOperation } from '../operations/contract/define.ts';
import { operations } from '../operations/contract/index.ts';
import { commandLine } from './examples.ts';
import { parseUsage } from './usage.ts';

const ROUTE = /\b(GET|POST|PUT|DELETE) (\/api\/[^\s?`'",;)]*[^\s?`'",;).])(\?[^\s`'",;)]*[^\s`'",;).])?/g;

function matchRoute(method: string, path: string): { op: AnyOperation; params: Record<string, string> } | undefined {
  for (const op of operations) {
    if (op.rest.method !== method) continue;
    const names: string[] = [];
    const pattern = op.rest.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const match = new RegExp(`^${pattern}$`).exec(path);
    if (match) return { op, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1]!)])) };
  }
  return undefined;
}

/** The command that sends the request `METHOD /api/…?query`, or undefined when no operation has that route. */
export function commandForRoute(method: string, pathAndQuery: string): string | undefined {
  const [path, query = ''] = pathAndQuery.split('?', 2) as [string, string?];
  const found = matchRoute(method, path);
  if (!found) return undefined;
  const input: Record<string, unknown> = { ...found.params };
  const renamed = Object.fromEntries(Object.entries(found.op.rest.rename ?? {}).map(([field, rest]) => [rest, field]));
  for (const [key, value] of new URLSearchParams(query)) input[renamed[key] ?? key] = value;
  return commandLine(found.op, input, { placeholders: true });
}

/** Rewrites every REST route in a service message as the `vitae` command that does the same. */
export function restHintsToCommands(message: string): string {
  return message.replace(ROUTE, (whole, method: string, path: string, query?: string) => {
    const command = commandForRoute(method, path + (query ?? ''));
    return command ? `\`${command}\`` : whole;
  });
}

/** Rewrites operation names in a description (`Apply it with admin_write_file`) as the command that runs it (`vitae admin put`). */
export function operationNamesToCommands(text: string): string {
  return text.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (name) => {
    const op = operations.find((o) => o.name === name);
    return op ? `\`vitae ${parseUsage(op.cli).path.join(' ')}\`` : name;
  });
}
