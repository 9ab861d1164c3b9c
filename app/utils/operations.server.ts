// The site's loaders read through the same operations as the API, through the site gateway that server.ts
// puts in the load context: no second data path, and the same pipeline (parse, authorize, errors).
import type { AppLoadContext } from '@remix-run/node';
import type { Branch, Locale } from '../../operations/contract/shared.ts';
import type { OperationName, OperationNamed, OutputOf } from '../../operations/contract/index.ts';
import type { SiteGateway } from '../../operations/adapters/site-gateway.server.ts';

/** What server.ts gives every loader and action. */
export interface VitaeContext {
  vitae: SiteGateway;
  branch: Branch;
  /** The visitor's address, resolved per TRUST_PROXY. */
  ip: string;
  /** The server build's route manifest (for the Markdown twins of pages). */
  routes: Record<string, unknown>;
}

export const vitaeContext = (context: AppLoadContext) => context as unknown as VitaeContext;

export async function callOperation<T = unknown>(context: AppLoadContext, name: string, input: Record<string, unknown> = {}, request?: Request): Promise<T> {
  const { vitae, branch, ip } = vitaeContext(context);
  return (await vitae.call(name as OperationName, input, { branch, ip, request })) as T;
}

export type SiteInfo = OutputOf<OperationNamed<'get_site'>>;

/**
 * Who the site is about and where it lives, through the `get_site` operation like every other read (the
 * answer is cached per build): the site as the pages show it, its address, the content commit and each
 * page's last change, and skill names in `locale`.
 */
export async function siteIdentity(context: AppLoadContext, locale: Locale = 'en', request?: Request) {
  const { branch } = vitaeContext(context);
  const info = await callOperation<SiteInfo>(context, 'get_site', { locale }, request);
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
    branch,
    content: info.content,
    pages: info.pages,
    /** A skill's name in `locale`, or its slug when there is no such skill. */
    skillName: (slug: string) => names.get(slug) ?? slug,
  };
}
