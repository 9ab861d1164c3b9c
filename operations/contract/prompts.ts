// MCP prompts, defined beside the operations: messages a host can offer its user ("pitch for a role",
// "compare with a job description"), filled with the profile through the public operations and the
// resources of resources.ts. Arguments are zod schemas like operation inputs, so they are checked the same
// way and described to hosts from the same definition.
import { z } from 'zod';
import { localeFacts } from './locales.ts';
import { JobDescription } from './match.ts';
import { getBrief, getEntry, getLens, listExperience, searchSubject } from './public.ts';
import { briefResource, entryMarkdown, entryResource, expandUri, lensMarkdown, lensResource, type ReadOperation, type ResourceDef } from './resources.ts';
import { LensId, Locale, Slug } from './shared.ts';
import type { Locale as LocaleCode } from './vocabulary.ts';

export type PromptContent = { type: 'text'; text: string } | { type: 'resource'; resource: { uri: string; mimeType: string; text: string } };
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: PromptContent;
}

export interface PromptDef<A extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** Prompt arguments arrive as strings; the schema checks them (every field a string or a string enum). */
  arguments: A;
  /** Arguments whose values are a resource template's variable (an entry's slug): completed from that template's resources. */
  listedBy?: Partial<Record<keyof z.output<A> & string, { resource: ResourceDef; variable: string }>>;
  render(args: z.output<A>, read: ReadOperation): Promise<PromptMessage[]>;
}

const definePrompt = <A extends z.ZodObject>(def: PromptDef<A>): PromptDef<A> => def;

const PromptLocale = Locale.optional().describe('Language of the answer (default en)');
const answerIn = (locale: LocaleCode | undefined) => `Answer in ${localeFacts[locale ?? 'en'].modelName}.`;
const text = (value: string): PromptMessage => ({ role: 'user', content: { type: 'text', text: value } });
const resource = (uri: string, markdown: string): PromptMessage => ({
  role: 'user',
  content: { type: 'resource', resource: { uri, mimeType: 'text/markdown', text: markdown } },
});

export const pitchForRole = definePrompt({
  name: 'pitch_for_role',
  title: 'Pitch for a role',
  description: 'A short, evidence-backed pitch of the subject for one of the role lenses, naming the honest gaps.',
  arguments: z.object({ lens: LensId.describe('Role lens id, e.g. head-of-ai'), locale: PromptLocale }),
  async render({ lens, locale }, read) {
    const vars = { id: lens, locale };
    const found = await read(getLens, { id: lens, ...(locale ? { locale } : {}) });
    const { entries } = await read(listExperience, { lens, ...(locale ? { locale } : {}) });
    const evidence = entries
      .slice(0, 8)
      .map((e) => `- [${e.title}](${e.url}) — ${e.organisation}, ${e.period.label}: ${e.summary}${e.keyResult ? ` (${e.keyResult})` : ''}`)
      .join('\n');
    return [
      text(
        `Write a pitch of about 150 words presenting the subject of this profile for the role "${found.title}". ` +
          'Use only the material below: the case for the role, the two or three strongest pieces of evidence with their links, ' +
          `and one honest gap with how the subject covers it. Do not invent facts. ${answerIn(locale)}`,
      ),
      resource(expandUri(lensResource.uriTemplate, vars), lensMarkdown(found)),
      text(`Entries that are evidence for this lens, newest first:\n\n${evidence || '(none)'}`),
    ];
  },
});

export const compareToJob = definePrompt({
  name: 'compare_to_job',
  title: 'Compare with a job description',
  description: 'How well the subject fits a job description you paste: matches with evidence, gaps, and questions to ask.',
  arguments: z.object({
    // match_role's own rule, so the prompt and the operation accept the same descriptions.
    job_description: JobDescription.describe('The job description, pasted as text'),
    locale: PromptLocale,
  }),
  async render({ job_description, locale }, read) {
    const brief = await read(getBrief, locale ? { locale } : {});
    const { results } = await read(searchSubject, { query: job_description.slice(0, 500), limit: 8 });
    const passages = results.map((r) => `- [${r.title}](${r.url}): ${r.passage}`).join('\n');
    return [
      text(
        'Compare the subject of this profile with the job description below. List the requirements the profile meets, each with ' +
          'its evidence and link; the requirements it does not show, honestly; and three questions an interviewer should ask. ' +
          `Use only the profile material given here. ${answerIn(locale)}`,
      ),
      resource(expandUri(briefResource.uriTemplate, { locale }), brief.markdown),
      text(`Passages of the profile that best match the job description:\n\n${passages || '(none)'}`),
      text(`The job description:\n\n${job_description}`),
    ];
  },
});

export const explainEntry = definePrompt({
  name: 'explain_entry',
  title: 'Explain an entry to a hiring manager',
  description: 'What one entry (experience, project, community role or education) shows about the subject, in five bullets.',
  arguments: z.object({ slug: Slug.describe('Entry slug, as listed by resources/list or list_experience'), locale: PromptLocale }),
  listedBy: { slug: { resource: entryResource, variable: 'slug' } },
  async render({ slug, locale }, read) {
    const entry = await read(getEntry, { slug, ...(locale ? { locale } : {}) });
    return [
      text(
        'Explain to a hiring manager, in five bullets, what this entry shows about the subject: the problem, what the subject did, ' +
          `the result, the skills it proves, and where to check it. ${answerIn(locale)}`,
      ),
      resource(expandUri(entryResource.uriTemplate, { slug, locale }), entryMarkdown(entry)),
    ];
  },
});

export const prompts: readonly PromptDef[] = [pitchForRole, compareToJob, explainEntry];
