// The site's loaders read through the same operations as the API, through the site gateway that server.ts
// puts in the load context: no second data path, and the same pipeline (parse, authorize, errors).
import type { AppLoadContext } from '@remix-run/node';
import type { Branch } from '../../operations/contract/shared.ts';
import type { OperationName } from '../../operations/contract/index.ts';
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

/**
 * Who the site is about (content/site.json) and where it lives. No operation returns these, so they are
 * read from the very build the operations read for this branch (no second copy of the content), like the
 * REST adapter does for the OpenAPI title. Skill names come along so entry pages can label skill slugs.
 */
export function siteIdentity(context: AppLoadContext) {
  const { vitae, branch } = vitaeContext(context);
  const { site, siteUrl, builtAt, skillName } = vitae.site(branch);
  return {
    site: {
      name: site.name,
      shortName: site.shortName,
      description: site.description,
      fictional: site.fictional,
      notice: site.notice,
      subject: site.subject,
      links: site.links,
    },
    siteUrl,
    branch,
    builtAt,
    skillName: skillName,
  };
}
