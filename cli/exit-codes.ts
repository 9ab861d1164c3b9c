// The exit codes of `vitae`, one per error class, as printed by `vitae --help` (the README has the same table).
import { exitCodes } from '../operations/contract/errors.ts';

export const exitCodeMeanings: Array<[code: number, meaning: string]> = [
  [exitCodes.ok, 'success'],
  [exitCodes.error, 'unexpected error'],
  [
    exitCodes.usage,
    'usage: unknown command, bad argument or input (the message names the allowed values), or a change without --yes and no terminal to ask on',
  ],
  [exitCodes.not_found, 'not found: no such entry, document, file or route'],
  [exitCodes.auth, 'auth: no admin token (vitae login, or SITE_ADMIN_TOKEN), or the token was refused'],
  [exitCodes.forbidden, 'forbidden: not a content file (only those are read or written), or your role does not allow it (main and promote need a publisher)'],
  [exitCodes.invalid, 'invalid: the content fails validation (each problem as path:line: message)'],
  [exitCodes.conflict, 'conflict: the branch moved; re-read with `vitae admin get` and retry with --sha (vitae admin edit merges for you)'],
  [exitCodes.rate_limited, 'rate limited: try again after the time given'],
  [exitCodes.unavailable, 'unavailable: service unreachable or not configured, or the publish run failed (--wait)'],
];

export const exitCodeHelp = ['Exit codes:', ...exitCodeMeanings.map(([code, meaning]) => `  ${code}  ${meaning}`)].join('\n');
