// The human formatters of the account operations: who is signed in, the editors, a new token (shown once), the
// audit trail. Beside format.ts, which merges them into its table by output shape.
import type { z } from 'zod';
import type { adminAudit, adminListEditors, adminRevokeEditor, Editor, whoami } from '../operations/contract/editors.ts';
import type { Rendered, View } from './view.ts';
import { renderTable } from './table.ts';

type EditorOut = z.output<typeof Editor> & { token?: string };

/** An editor's account, and the token when one was just made: printed once, with what to do with it. */
function account(e: EditorOut, view: View, what: string): Rendered {
  const c = view.colours;
  const lines = [`${c.bold(e.name)} <${e.email}> · ${e.role} · id ${c.cyan(e.id)}`, `tokens: ${e.tokens.map((t) => t.id).join(', ') || 'none'}`];
  if (e.token) {
    lines.push('', `token: ${e.token}`, c.dim('Shown this once and stored only as a hash: give it to the editor (`vitae login`, or the console’s sign-in).'));
  }
  return { out: `${lines.join('\n')}\n`, note: what };
}

export const accountFormatters = {
  WhoAmI: (body: z.output<typeof whoami.output>, view: View): Rendered => ({
    out: `${view.colours.bold(body.name)}${body.email ? ` <${body.email}>` : ''} · ${body.role} · id ${body.id} (signed in by ${body.via})\n`,
  }),

  Editors: (body: z.output<typeof adminListEditors.output>, view: View): Rendered => ({
    out: renderTable(
      body.editors,
      [
        { header: 'ID', value: (e) => e.id, style: (t) => view.colours.cyan(t) },
        { header: 'ROLE', value: (e) => e.role },
        { header: 'TOKENS', value: (e) => (e.id === 'owner' ? 'ADMIN_TOKEN' : e.tokens.map((t) => t.id).join(' ') || '—') },
        { header: 'NAME', value: (e) => `${e.name}${e.email ? ` <${e.email}>` : ''}`, flex: true },
      ],
      view,
    ),
    note: `${body.editors.length} ${body.editors.length === 1 ? 'account' : 'accounts'} · vitae admin add-editor <name> <email> --role editor`,
  }),

  NewEditor: (body: EditorOut, view: View) => account(body, view, `added ${body.id}`),
  UpdatedEditor: (body: EditorOut, view: View) => account(body, view, `changed ${body.id}`),
  RemovedEditor: (body: z.output<typeof adminRevokeEditor.output>): Rendered => ({
    out: `Removed ${body.id}: every token and console session of theirs has ended. Their commits keep their name.\n`,
  }),

  AuditTrail: (body: z.output<typeof adminAudit.output>, view: View): Rendered => ({
    out: body.events.length
      ? renderTable(
          body.events,
          [
            { header: 'TIME', value: (e) => e.at.slice(0, 19).replace('T', ' ') },
            { header: 'WHO', value: (e) => e.actor?.id ?? '—', style: (t) => view.colours.cyan(t) },
            { header: 'ACTION', value: (e) => e.action },
            { header: 'FROM', value: (e) => e.ip },
            { header: 'WHAT', value: (e) => e.detail, flex: true },
          ],
          view,
        )
      : 'No events yet.\n',
    note: body.next ? `older: --cursor ${body.next}` : undefined,
  }),
};
