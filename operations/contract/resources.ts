// MCP resources, defined beside the operations they are read through: the brief, each entry, each lens and
// each reference document as Markdown, addressed by URI templates with an optional `locale`. A resource
// holds no data of its own: listing and reading call the public operations (the MCP adapter passes in how),
// so a resource says exactly what the tool and the REST route of the same record say.
import type { z } from 'zod';
import type { AnyOperation } from './define.ts';
import { getBrief, getDocument, getEntry, getLens, listExperience, listLenses } from './public.ts';
import { documentNames, kinds, lensIds, locales, type Kind } from './vocabulary.ts';
import { entrySections } from './entry-sections.ts';
import { labels } from './labels.ts';

/** Runs a public operation with raw input (validated on the way) and gives its output. */
export type ReadOperation = <Op extends AnyOperation>(op: Op, input: Record<string, unknown>) => Promise<z.output<Op['output']>>;

export interface ListedResource {
  uri: string;
  name: string;
  title: string;
  description?: string;
}

export interface ResourceDef {
  /** Programmatic name of the template. */
  name: string;
  title: string;
  description: string;
  /** RFC 6570 template, e.g. `vitae://entries/{slug}{?locale}`. */
  uriTemplate: string;
  mimeType: string;
  /** Allowed values of each variable, where they are a fixed vocabulary (for completion). */
  values?: Record<string, readonly string[]>;
  /** The concrete resources of this template, in the default locale. */
  list(read: ReadOperation): Promise<ListedResource[]>;
  /** The resource's text for the template's variables. */
  read(vars: Record<string, string>, read: ReadOperation): Promise<string>;
}

export const RESOURCE_SCHEME = 'vitae';
const MARKDOWN = 'text/markdown';

/** A URI of one resource from its template: `{name}` path segments, `{?a,b}` query (empty values left out). */
export function expandUri(template: string, vars: Record<string, string | undefined>): string {
  return template
    .replace(/\{\?([^}]+)\}/g, (_, names: string) => {
      const pairs = names
        .split(',')
        .filter((name) => vars[name] !== undefined && vars[name] !== '')
        .map((name) => `${name}=${encodeURIComponent(vars[name]!)}`);
      return pairs.length ? `?${pairs.join('&')}` : '';
    })
    .replace(/\{([^}?]+)\}/g, (_, name: string) => encodeURIComponent(vars[name] ?? ''));
}

/**
 * The variables of `uri` if it matches `template`, else undefined. Query variables are optional and in any
 * order; a query parameter the template does not name, or one given twice, makes no match.
 */
export function matchUri(template: string, uri: string): Record<string, string> | undefined {
  const queryNames = [...template.matchAll(/\{\?([^}]+)\}/g)].flatMap((m) => m[1]!.split(','));
  const pathTemplate = template.replace(/\{\?[^}]+\}/g, '');
  const names: string[] = [];
  const pattern = pathTemplate.split(/(\{[^}]+\})/).map((part) => {
    const variable = /^\{([^}]+)\}$/.exec(part);
    if (!variable) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(variable[1]!);
    return '([^/?#]+)';
  });
  const [path = '', query, ...rest] = uri.split('?');
  if (rest.length) return undefined;
  const found = new RegExp(`^${pattern.join('')}$`).exec(path);
  if (!found) return undefined;
  const vars: Record<string, string> = {};
  try {
    names.forEach((name, i) => (vars[name] = decodeURIComponent(found[i + 1]!)));
    for (const pair of query ? query.split('&') : []) {
      const [key = '', value = ''] = pair.split('=').map((p) => decodeURIComponent(p.replace(/\+/g, ' ')));
      if (!queryNames.includes(key) || key in vars) return undefined;
      vars[key] = value;
    }
  } catch {
    return undefined; // malformed percent-encoding
  }
  return vars;
}

const locale = (vars: Record<string, string>) => (vars.locale ? { locale: vars.locale } : {});
const bullets = (items: readonly string[]) => items.map((item) => `- ${item}`).join('\n');
const section = (title: string, body: string) => (body.trim() ? `\n## ${title}\n\n${body.trim()}\n` : '');
const sourceLine = (url: string, translated: boolean) =>
  `\n---\nSource: ${url}${translated ? '' : '\n(No current translation for this locale: shown in English.)'}\n`;

type EntryLong = z.output<typeof getEntry.output>;
type LensOut = z.output<typeof getLens.output>;

/** The field of a lens's evidence that counts each kind. */
const evidenceOf: Record<Kind, Exclude<keyof LensOut['evidence'], 'entries'>> = {
  experience: 'experience',
  project: 'projects',
  community: 'community',
  education: 'education',
};

/** An entry in long form as one Markdown document, its headings in the entry's locale (the MCP resources and prompts). */
export function entryMarkdown(entry: EntryLong): string {
  return entryBody(entry) + sourceLine(entry.url, entry.translated);
}

/** The entry's title, facts and sections, without the line naming its source (`vitae get` ends it its own way). */
export function entryBody(entry: EntryLong): string {
  const heading = entrySections[entry.locale];
  const facts = [entry.organisation, entry.period.label, labels[entry.locale][`kind.${entry.kind}`]].filter(Boolean).join(' · ');
  return [
    `# ${entry.title}\n\n${facts}\n\n${entry.summary}\n`,
    entry.keyResult ? `\n**${heading.keyResult}:** ${entry.keyResult}\n` : '',
    section(heading.overview, entry.overview),
    section(heading.contributionsUnnamed, bullets(entry.contributions)),
    section(heading.achievements, bullets(entry.achievements)),
    section(heading.whyItMatters, entry.whyItMatters),
    section(heading.keyResults, bullets(entry.keyResults)),
    section(heading.skills, entry.skills.join(', ')),
    section(heading.proofLinks, bullets(entry.proofLinks.map((link) => `[${link.label}](${link.url})`))),
  ].join('');
}

/** A role lens as one Markdown document: the pitch, the honest gaps and the evidence counts. */
export function lensMarkdown(lens: LensOut): string {
  return lensBody(lens) + sourceLine(lens.url, lens.translated);
}

/** The lens's title, pitch, gaps and evidence, without the line naming its source (`vitae lens` ends it its own way). */
export function lensBody(lens: LensOut): string {
  const label = labels[lens.locale];
  // The evidence per kind, as the lens's page counts it (its `kindPlural` words).
  const counts = kinds
    .filter((kind) => lens.evidence[evidenceOf[kind]] > 0)
    .map((kind) => `${label[`kindPlural.${kind}`]}: ${lens.evidence[evidenceOf[kind]]}`);
  return [`# ${lens.title}\n\n${lens.pitch.trim()}\n`, section(label.honestGaps, bullets(lens.honestGaps)), section(label.evidence, bullets(counts))].join('');
}

export const briefResource: ResourceDef = {
  name: 'brief',
  title: 'Brief',
  description: 'The one-page brief of the subject (Markdown), in the locale asked for.',
  uriTemplate: `${RESOURCE_SCHEME}://brief{?locale}`,
  mimeType: MARKDOWN,
  values: { locale: locales },
  list: async () => [{ uri: `${RESOURCE_SCHEME}://brief`, name: 'brief', title: 'Brief', description: 'The one-page brief of the subject.' }],
  read: async (vars, read) => (await read(getBrief, locale(vars))).markdown,
};

export const entryResource: ResourceDef = {
  name: 'entry',
  title: 'Entry',
  description: 'One entry (experience, project, community role or education) in long form, as Markdown.',
  uriTemplate: `${RESOURCE_SCHEME}://entries/{slug}{?locale}`,
  mimeType: MARKDOWN,
  values: { locale: locales },
  async list(read) {
    const { entries } = await read(listExperience, {});
    return entries.map((entry) => ({
      uri: expandUri(entryResource.uriTemplate, { slug: entry.slug }),
      name: entry.slug,
      title: entry.title,
      description: entry.summary,
    }));
  },
  read: async (vars, read) => entryMarkdown(await read(getEntry, { slug: vars.slug, ...locale(vars) })),
};

export const lensResource: ResourceDef = {
  name: 'lens',
  title: 'Role lens',
  description: 'One role lens as Markdown: the case for the role, the honest gaps and how much evidence supports it.',
  uriTemplate: `${RESOURCE_SCHEME}://lenses/{id}{?locale}`,
  mimeType: MARKDOWN,
  values: { id: lensIds, locale: locales },
  async list(read) {
    const { lenses } = await read(listLenses, {});
    return lenses.map((lens) => ({ uri: expandUri(lensResource.uriTemplate, { id: lens.id }), name: lens.id, title: lens.title }));
  },
  // An id that is no lens is get_lens's not_found, in the words of its tool and REST route.
  read: async (vars, read) => lensMarkdown(await read(getLens, { id: vars.id, ...locale(vars) })),
};

export const documentResource: ResourceDef = {
  name: 'document',
  title: 'Reference document',
  description: 'One of the five reference documents (profile, credentials, capabilities, talks, thinking) as Markdown.',
  uriTemplate: `${RESOURCE_SCHEME}://documents/{name}{?locale}`,
  mimeType: MARKDOWN,
  values: { name: documentNames, locale: locales },
  async list(read) {
    const documents = await Promise.all(documentNames.map((name) => read(getDocument, { name })));
    return documents.map((doc) => ({
      uri: expandUri(documentResource.uriTemplate, { name: doc.name }),
      name: doc.name,
      title: doc.title,
      description: doc.summary,
    }));
  },
  async read(vars, read) {
    // (a name that is none of the five names no resource, as a lens id or a slug that is none does)
    if (!(documentNames as readonly string[]).includes(vars.name ?? '')) {
      throw new ResourceNotFound(`No document "${vars.name}"; the documents are ${documentNames.join(', ')}.`);
    }
    const doc = await read(getDocument, { name: vars.name, ...locale(vars) });
    const text = /^#\s/.test(doc.markdown.trimStart()) ? doc.markdown.trim() : `# ${doc.title}\n\n${doc.markdown.trim()}`;
    return `${text}\n${sourceLine(doc.url, doc.translated)}`;
  },
};

/** Thrown by a resource that does not exist although its URI matched a template. */
export class ResourceNotFound extends Error {}

export const resources: readonly ResourceDef[] = [briefResource, entryResource, lensResource, documentResource];
