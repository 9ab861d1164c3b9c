// Sign-in to the console with a token (the owner's admin token, or an editor's own): one form (conform, validated by the same zod schema in the
// browser and in the action), the admin surface's own login (a wrong token is said in the form; a throttled
// address is told how long to wait), then back to the page that asked for it.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, useActionData, useNavigation, useSearchParams } from '@remix-run/react';
import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { z } from 'zod';
import { isAppError } from '../../operations/contract/errors.ts';
import adminStyles from '../admin/admin.css';
import { safeNext } from '../admin/session.server.ts';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }];
export const handle = { console: true };
export const meta: MetaFunction = () => [{ title: 'Sign in · Vitae console' }, { name: 'robots', content: 'noindex, nofollow' }];

const SignIn = z.object({
  token: z.string({ error: 'Enter your token.' }).trim().min(1, 'Enter your token.'),
  next: z.string().optional(),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { vitae, branch, ip } = context;
  // Already signed in: straight on.
  if ((await vitae.principal({ branch, ip, request })).kind === 'admin') throw redirect(safeNext(new URL(request.url).searchParams.get('next')));
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: SignIn });
  if (submission.status !== 'success') return { result: submission.reply({ hideFields: ['token'] }) };
  const { vitae, branch, ip } = context;
  try {
    const cookie = await vitae.login(submission.value.token, { branch, ip, request });
    return redirect(safeNext(submission.value.next), { headers: { 'Set-Cookie': cookie } });
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === 'unauthorized') {
      return {
        result: submission.reply({
          fieldErrors: {
            token: [
              'That token is not the admin token, nor an editor’s. The admin token is printed when the service first starts, and kept in DATA_DIR/secrets/admin-token; an editor’s is given to them by a publisher.',
            ],
          },
          hideFields: ['token'],
        }),
      };
    }
    return { result: submission.reply({ formErrors: [error.message], hideFields: ['token'] }) };
  }
}

export default function SignInPage() {
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: data?.result,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignIn }),
  });
  return (
    <div className="console signin">
      <main id="console-main" className="signin-card">
        <h1>Sign in to the console</h1>
        <p className="muted">Edit, review and publish the profile. Use your token: the admin token of this service, or the one a publisher gave you.</p>
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="next" value={params.get('next') ?? ''} />
          {form.errors?.length ? (
            <div className="notice notice-error" role="alert" id={form.errorId}>
              {form.errors.map((e) => (
                <p key={e}>{e}</p>
              ))}
            </div>
          ) : null}
          <label htmlFor={fields.token.id}>Token</label>
          <input
            {...getInputProps(fields.token, { type: 'password' })}
            autoComplete="current-password"
            autoFocus
            aria-describedby={fields.token.errors ? fields.token.errorId : undefined}
          />
          {fields.token.errors ? (
            <p className="field-error" id={fields.token.errorId}>
              {fields.token.errors.join(' ')}
            </p>
          ) : null}
          <button type="submit" className="button" disabled={navigation.state !== 'idle'}>
            {navigation.state !== 'idle' ? 'Signing in…' : 'Sign in'}
          </button>
        </Form>
      </main>
    </div>
  );
}
