// The service words its hints for every surface by REST route ("List the slugs with GET /api/v1/entries.");
// on the command line the same hint names the command that does it (`vitae list`). The route is matched
// against the operation list (contract/routes.ts), so a new operation's hints are translated without a line here.
import { operations } from '../operations/contract/index.ts';
import { rewordRoutes } from '../operations/contract/routes.ts';
import { commandLine } from './examples.ts';
import { parseUsage } from './usage.ts';

/** Rewrites every REST route in a service message as the `vitae` command that does the same. */
export function restHintsToCommands(message: string): string {
  return rewordRoutes(message, ({ op, input }) => (op.cli ? `\`${commandLine(op, input, { placeholders: true })}\`` : undefined));
}

/** Rewrites operation names in a description (`Apply it with admin_write_file`) as the command that runs it (`vitae admin put`). */
export function operationNamesToCommands(text: string): string {
  return text.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (name) => {
    const op = operations.find((o) => o.name === name);
    return op?.cli ? `\`vitae ${parseUsage(op.cli).path.join(' ')}\`` : name;
  });
}
