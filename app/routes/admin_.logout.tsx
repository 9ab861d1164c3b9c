// Sign-out: the admin surface ends the session (the old cookie is refused from then on) and clears it.
import type { ActionFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { isAppError } from '../../operations/contract/errors.ts';

export async function action({ request, context }: ActionFunctionArgs) {
  const { vitae, branch, ip } = context;
  try {
    const cookie = await vitae.logout({ branch, ip, request });
    return redirect('/admin/login', { headers: { 'Set-Cookie': cookie } });
  } catch (error) {
    // A sign-out from another site (no or a foreign Origin) is refused with its own status and words, not a 500.
    if (!isAppError(error)) throw error;
    return Response.json(error.toBody(), { status: error.status, headers: { 'Cache-Control': 'no-store', ...error.headers } });
  }
}

export const loader = () => redirect('/admin');
