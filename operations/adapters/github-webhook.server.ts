// POST /api/admin/github/webhook: what GitHub tells the service about its content repository — a push (an edit
// made outside the service), a workflow run requested or completed — so that it reads the runs and deploys a
// finished one without waiting for the next poll. No bearer token: the body is signed with the webhook's
// secret (GITHUB_WEBHOOK_SECRET) in X-Hub-Signature-256, checked with @octokit/webhooks-methods (in constant
// time) over exactly the bytes received; a missing or wrong signature is 401 and nothing happens. The payload is trusted only for which
// branch to look at: what is deployed is always read back from the Actions API.
import { verify } from '@octokit/webhooks-methods';
import { AppError } from '../contract/errors.ts';
import type { GitHubEvent } from '../server/actions-pipeline.server.ts';
import { readBody, sendEmpty, sendJson, type Endpoint } from './edge.server.ts';
import type { CredentialThrottle } from '../server/credential-throttle.server.ts';

export const WEBHOOK_PATH = '/api/admin/github/webhook';
/** GitHub sends at most 25 MB; a push of a content repository is far smaller, and nothing here needs more. */
const WEBHOOK_LIMIT = 5 * 1024 * 1024;

/** The branch and, for a push, the new head, from the few fields read of a payload. */
export function eventOf(name: string, payload: unknown): GitHubEvent | undefined {
  const body = (payload ?? {}) as { ref?: unknown; after?: unknown; workflow_run?: { head_branch?: unknown } };
  if (name === 'push' && typeof body.ref === 'string' && body.ref.startsWith('refs/heads/'))
    return { name, branch: body.ref.slice('refs/heads/'.length), ...(typeof body.after === 'string' ? { after: body.after } : {}) };
  if (name === 'workflow_run' && typeof body.workflow_run?.head_branch === 'string') return { name, branch: body.workflow_run.head_branch };
  return undefined;
}

export interface WebhookDeps {
  secret: string | undefined;
  onEvent: ((event: GitHubEvent) => void) | undefined;
  /**
   * The failure budget of credentials per address: a signature is a credential, and checking one costs reading and
   * hashing its body, so an address whose signatures keep failing is refused (429) before a byte is read.
   */
  throttle?: Pick<CredentialThrottle, 'attempt'>;
}

export function githubWebhookEndpoint({ secret, onEvent, throttle }: WebhookDeps): Endpoint {
  const refuse = (message: string) => new AppError('unauthorized', message);
  return {
    methods: ['POST'],
    path: WEBHOOK_PATH,
    async handle({ req, res, ip }) {
      if (!secret || !onEvent)
        throw new AppError('repo_not_configured', 'The GitHub webhook is only answered with REPO_BACKEND=github and GITHUB_WEBHOOK_SECRET.');
      const signature = req.headers['x-hub-signature-256'];
      if (typeof signature !== 'string' || !/^sha256=[0-9a-f]{64}$/.test(signature)) throw refuse('Missing or malformed X-Hub-Signature-256.');
      const attempt = throttle ? await throttle.attempt('webhook', { address: ip }) : undefined;
      if (attempt && !attempt.allowed) {
        const retry = Math.max(1, Math.ceil(attempt.retryAfterMs / 1000));
        throw new AppError('rate_limited', `Too many deliveries with a wrong signature from this address; try again in ${retry} seconds.`, {
          headers: { 'Retry-After': String(retry) },
        });
      }
      const bytes = await readBody(req, WEBHOOK_LIMIT);
      const raw = bytes.toString('utf8');
      // verify() signs the string it is given, as UTF-8: that is the bytes received only when they are valid
      // UTF-8 (GitHub sends JSON in UTF-8). Other bytes decode with replacement characters, and a body whose
      // bytes differ from the signed ones must not pass on the strength of decoding to the same text.
      const exact = Buffer.from(raw, 'utf8').equals(bytes);
      if (!exact || !(await verify(secret, raw, signature).catch(() => false)))
        throw refuse('The X-Hub-Signature-256 signature does not match the webhook secret.');
      if (attempt?.allowed) await attempt.refund(); // a delivery signed with the secret is no guess
      const name = String(req.headers['x-github-event'] ?? '');
      if (name === 'ping') return sendJson(req, res, 200, { ok: true }, { 'Cache-Control': 'no-store' });
      let payload: unknown;
      try {
        payload = JSON.parse(raw);
      } catch {
        throw new AppError('bad_request', 'The webhook body is not JSON (set the webhook’s content type to application/json).');
      }
      const event = eventOf(name, payload);
      if (event) onEvent(event);
      sendEmpty(res, 204, { 'Cache-Control': 'no-store' });
    },
  };
}
