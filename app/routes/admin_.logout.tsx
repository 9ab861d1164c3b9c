// Sign-out: the admin surface ends the session (the old cookie is refused from then on) and clears it.
import type { ActionFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { vitaeContext } from '../utils/operations.server.ts';

export async function action({ request, context }: ActionFunctionArgs) {
  const { vitae, branch, ip } = vitaeContext(context);
  const cookie = await vitae.logout({ branch, ip, request });
  return redirect('/admin/login', { headers: { 'Set-Cookie': cookie } });
}

export const loader = () => redirect('/admin');
