// The web app's door onto the operations: the site's loaders and the console's loaders and actions call
// operations here, through the same `invoke` pipeline as REST and MCP, as the visitor whose request it is
// (anonymous, or an editor with a console session). Sign-in and sign-out are the admin surface's own.
import type { Branch } from '../contract/shared.ts';
import { operationNamed, type OperationName, type OperationNamed, type OutputOf, type RawInputOf } from '../contract/index.ts';
import { anonymous, type Implementation, type Principal } from '../server/implement.server.ts';
import type { AdminAuth } from './admin-auth.server.ts';
import type { MediaLibrary } from '../server/media-library.server.ts';

export interface CallerOfPage {
  branch: Branch;
  /** Client address, resolved per TRUST_PROXY. */
  ip: string;
  /** The page request: its cookie says who is calling, and its signal ends the call when the visitor leaves. */
  request?: Request;
}

const headersOf = (request: Request) => (name: string) => request.headers.get(name) ?? undefined;

export interface SiteFeatures {
  /** A model provider is configured: the chat answers (else it falls back to search). */
  chat: boolean;
  /** Voice input can be transcribed. */
  transcription: boolean;
}

export function createSiteGateway({
  layer,
  auth,
  features,
  media,
}: {
  layer: Implementation;
  auth: AdminAuth;
  features: SiteFeatures;
  /** The images' variants, for what the site draws itself (the Open Graph cards' portrait). */
  media?: Pick<MediaLibrary, 'variant'>;
}) {
  const principalOf = async (caller: CallerOfPage): Promise<Principal> =>
    caller.request ? auth.principal(headersOf(caller.request), caller.request.method, caller.branch, caller.ip) : anonymous;
  return {
    async call<N extends OperationName>(name: N, input: RawInputOf<OperationNamed<N>>, caller: CallerOfPage): Promise<OutputOf<OperationNamed<N>>> {
      const op = operationNamed(name);
      const { output } = await layer.invoke(op, input, {
        branch: caller.branch,
        ip: caller.ip,
        principal: await principalOf(caller),
        door: 'site',
        signal: caller.request?.signal,
      });
      return output;
    },
    principal: principalOf,
    /** Opens a console session; returns the Set-Cookie header value. */
    login: (token: unknown, caller: CallerOfPage & { request: Request }) =>
      auth.login({ token, ip: caller.ip, headers: headersOf(caller.request), branch: caller.branch }),
    /** Ends the console session; returns the Set-Cookie header value that clears it. */
    logout: (caller: CallerOfPage & { request: Request }) => auth.logout({ headers: headersOf(caller.request), branch: caller.branch, ip: caller.ip }),
    /** What the service can do for a visitor: answer by chat, transcribe a recording. */
    features: () => features,
    /** An image's variant by its name under /media/ (what a record's `sources` list), or undefined. */
    image: async (name: string) => (await media?.variant(name))?.bytes,
  };
}

export type SiteGateway = ReturnType<typeof createSiteGateway>;
