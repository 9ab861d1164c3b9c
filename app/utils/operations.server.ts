// The site's loaders read through the same operations as the API, through the site gateway that server.ts
// puts in the load context: no second data path, and the same pipeline (parse, authorize, errors).
import type { ServerBuild } from '@remix-run/node';
import type { Branch, Locale } from '../../operations/contract/shared.ts';
import { operationNamed, type OperationName, type OperationNamed, type OutputOf, type RawInputOf } from '../../operations/contract/index.ts';
import type { SiteGateway } from '../../operations/adapters/site-gateway.server.ts';

/**
 * The answers of the pure reads one request has asked for, by operation and then by branch and input. A page
 * render runs the root loader and the page's loaders, which often need the same read (the site's identity):
 * kept here, it is asked of the pipeline once per render.
 */
export type RequestReads = { [N in OperationName]?: Map<string, Promise<OutputOf<OperationNamed<N>>>> };

/** What server.ts gives every loader and action, made anew for each request. */
export interface VitaeContext {
  vitae: SiteGateway;
  branch: Branch;
  /** The visitor's address, resolved per TRUST_PROXY. */
  ip: string;
  /** The server build's route manifest (for the Markdown twins of pages). */
  routes: ServerBuild['routes'];
  /** This request's pure reads (see `read`); a new, empty object per request. */
  reads: RequestReads;
  /** The nonce of this answer's inline scripts (Content-Security-Policy). */
  cspNonce?: string;
  /** A status the server decided before any page answered (a malformed address): the root loader shows it. */
  httpStatus?: number;
}

// Declared once, as Remix intends: every loader and action gets the context typed, without a cast.
declare module '@remix-run/server-runtime' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging needs an interface
  interface AppLoadContext extends VitaeContext {}
}

type Context = Pick<VitaeContext, 'vitae' | 'branch' | 'ip' | 'reads'>;

/**
 * Runs operation `name` as the visitor whose request it is (anonymous without `request`), typed by its definition.
 * A pure operation (its answer depends only on the input and the live build) is run once per request and input: a
 * second loader asking the same is given the first one's answer.
 */
export function read<N extends OperationName>(
  context: Context,
  name: N,
  input: RawInputOf<OperationNamed<N>>,
  request?: Request,
): Promise<OutputOf<OperationNamed<N>>> {
  const { vitae, branch, ip, reads } = context;
  const run = () => vitae.call(name, input, { branch, ip, request });
  if (!operationNamed(name).pure) return run();
  const byInput: RequestReads[N] = (reads[name] ??= new Map());
  const key = `${branch}\0${JSON.stringify(input)}`;
  let answer = byInput.get(key);
  if (!answer) {
    answer = run();
    byInput.set(key, answer);
  }
  return answer;
}

export type SiteInfo = OutputOf<OperationNamed<'get_site'>>;

/**
 * Who the site is about and where it lives, through the `get_site` operation like every other read (once per
 * request, see `read`): the site as the pages show it, its address, the content commit and each page's last
 * change, and skill names in `locale`.
 */
export async function siteIdentity(context: Context, locale: Locale = 'en', request?: Request) {
  const info = await read(context, 'get_site', { locale }, request);
  const names = new Map(info.skills.map((s) => [s.slug, s.name]));
  return {
    site: {
      name: info.name,
      shortName: info.shortName,
      description: info.description,
      fictional: info.fictional,
      notice: info.notice,
      subject: info.subject,
      links: info.links,
    },
    siteUrl: info.url,
    branch: context.branch,
    content: info.content,
    pages: info.pages,
    /** A skill's name in `locale`, or its slug when there is no such skill. */
    skillName: (slug: string) => names.get(slug) ?? slug,
  };
}
