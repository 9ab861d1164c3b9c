// Handlers of the public read operations: pure functions of the input and the live build.
import { AppError } from '../contract/errors.ts';
import type { InputOf, OutputOf } from '../contract/define.ts';
import type { getBrief, getDocument, getEntry, listExperience, listLenses, searchSubject } from '../contract/public.ts';
import type { OperationContext } from './context.server.ts';

export const publicHandlers = {
  get_brief(input: InputOf<typeof getBrief>, { build }: OperationContext): OutputOf<typeof getBrief> {
    const { markdown, translated } = build.locales[input.locale].brief;
    return { markdown, locale: input.locale, translated };
  },

  list_experience(input: InputOf<typeof listExperience>, { build }: OperationContext): OutputOf<typeof listExperience> {
    const entries = build.locales[input.locale].entries
      .filter((e) => (!input.tag || e.tags.includes(input.tag)) && (!input.lens || e.lenses.includes(input.lens)) && (!input.kind || e.kind === input.kind))
      .map(({ overview, contributions, achievements, whyItMatters, keyResults, skills, proofLinks, ...short }) => short);
    return { entries, total: entries.length };
  },

  get_entry(input: InputOf<typeof getEntry>, { build }: OperationContext): OutputOf<typeof getEntry> {
    const entry = build.locales[input.locale].entryBySlug.get(input.slug);
    if (!entry) throw new AppError('not_found', `No entry with slug "${input.slug}". List the slugs with GET /api/v1/entries.`);
    return entry;
  },

  list_lenses(input: InputOf<typeof listLenses>, { build }: OperationContext): OutputOf<typeof listLenses> {
    return { lenses: build.locales[input.locale].lenses };
  },

  search_subject(input: InputOf<typeof searchSubject>, { build }: OperationContext): OutputOf<typeof searchSubject> {
    return { query: input.query, results: build.search.search(input.query, input.limit) };
  },

  get_document(input: InputOf<typeof getDocument>, { build }: OperationContext): OutputOf<typeof getDocument> {
    const doc = build.locales[input.locale].documents.get(input.name);
    if (!doc) throw new AppError('not_found', `No document named "${input.name}".`);
    return doc;
  },
};
