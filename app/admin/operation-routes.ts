// The REST routes of the admin operations, for the console's browser code: the operation list itself cannot go
// to the browser (its zod schemas would double the editor's download), so its routes are copied here as plain
// data. The type names every admin operation (a new one is a compile error until it is added) and
// operation-routes.test.ts checks each route against the list, so the copy cannot drift from it.
import type { OperationName, RestBinding } from '../../operations/contract/index.ts';

/** An operation the console runs from the browser: every admin operation, by its name. */
export type ConsoleOperation = Extract<OperationName, `admin_${string}`> | 'whoami';

export const consoleRoutes: { readonly [N in ConsoleOperation]: RestBinding } = {
  admin_schema: { method: 'GET', path: '/api/admin/schema' },
  admin_list_files: { method: 'GET', path: '/api/admin/files' },
  admin_read_file: { method: 'GET', path: '/api/admin/file' },
  admin_validate: { method: 'POST', path: '/api/admin/validate' },
  admin_write_file: { method: 'PUT', path: '/api/admin/file' },
  admin_delete_file: { method: 'DELETE', path: '/api/admin/file', from: 'query+body' },
  admin_commit_changes: { method: 'POST', path: '/api/admin/changes', maxBody: 34603008 },
  admin_validate_changes: { method: 'POST', path: '/api/admin/changes/validate', maxBody: 34603008 },
  admin_ai_edit: { method: 'POST', path: '/api/admin/ai-edit' },
  admin_translate: { method: 'POST', path: '/api/admin/translate' },
  admin_translation: { method: 'GET', path: '/api/admin/translation' },
  admin_deploy_status: { method: 'GET', path: '/api/admin/deploys' },
  admin_promote: { method: 'POST', path: '/api/admin/promote' },
  admin_history: { method: 'GET', path: '/api/admin/history' },
  admin_compare: { method: 'GET', path: '/api/admin/compare' },
  admin_preview: { method: 'POST', path: '/api/admin/preview' },
  admin_list_editors: { method: 'GET', path: '/api/admin/editors' },
  admin_add_editor: { method: 'POST', path: '/api/admin/editors' },
  admin_update_editor: { method: 'PATCH', path: '/api/admin/editors/{id}' },
  admin_revoke_editor: { method: 'DELETE', path: '/api/admin/editors/{id}' },
  admin_audit: { method: 'GET', path: '/api/admin/audit' },
  whoami: { method: 'GET', path: '/api/admin/whoami' },
  admin_upload_media: { method: 'POST', path: '/api/admin/media', maxBody: 12648448, multipart: { part: 'file', into: 'contentBase64' } },
};
