// The site's loaders read through the same operations as the API: no second data path.
import type { AppLoadContext } from '@remix-run/node';
import { operationsByName } from '../../operations/contract/index.ts';
import { invoke } from '../../operations/server/handlers.server.ts';
import type { Branch, Locale } from '../../operations/contract/shared.ts';
import type { Runtime } from '../../operations/server/runtime.server.ts';

interface VitaeContext {
  runtime: Runtime;
  branch: Branch;
}

export async function callOperation<T = unknown>(context: AppLoadContext, name: string, input: Record<string, unknown> = {}): Promise<T> {
  const { runtime, branch } = context as unknown as VitaeContext;
  const op = operationsByName.get(name);
  if (!op) throw new Error(`Unknown operation ${name}`);
  return (await invoke(op, input, { runtime, branch, build: runtime.build(branch), clientIp: 'site' })) as T;
}

/**
 * Who the site is about (content/site.json) and where it lives. No operation returns these, so they are
 * read from the very build the operations read for this branch (no second copy of the content), like the
 * REST adapter does for the OpenAPI title. Skill names come along so entry pages can label skill slugs.
 */
export function siteIdentity(context: AppLoadContext) {
  const { runtime, branch } = context as unknown as VitaeContext;
  const build = runtime.build(branch);
  const { site } = build.model;
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
    siteUrl: build.siteUrl,
    branch,
    builtAt: build.builtAt,
    skillName(locale: Locale, slug: string): string {
      return build.locales[locale].skills.get(slug)?.name ?? slug;
    },
  };
}
