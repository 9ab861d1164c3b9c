// The console's browser side runs operations here: POST /admin/api/<operation> with the input as JSON, as
// the signed-in editor, through the same gateway (and so the same invoke pipeline) as every loader and
// action. The answer is the operation's output, or its error body with its status, as over REST. (The
// browser does not load the operation list itself: its zod schemas would double the editor's download.)
import type { ActionFunctionArgs } from '@remix-run/node';
import { operationsByName, type OperationName } from '../../operations/contract/index.ts';
import { asEditor } from '../admin/session.server.ts';

export async function action({ request, context, params }: ActionFunctionArgs) {
  const name = params.operation ?? '';
  if (!operationsByName.has(name)) return Response.json({ code: 'not_found', message: `There is no operation named "${name}".` }, { status: 404 });
  let input: unknown;
  try {
    input = await request.json();
  } catch {
    return Response.json({ code: 'bad_request', message: 'Send the operation’s input as a JSON object.' }, { status: 400 });
  }
  try {
    return Response.json(await asEditor(request, context, name as OperationName, input as never), { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    if (error instanceof Response) return error; // the operation's own status and error body
    throw error;
  }
}
