// Handlers of the public read operations: pure functions of the input and the branch's live build.
import { AppError } from '../contract/errors.ts';
import type { publicReadOperations } from '../contract/public.ts';
import type { Handlers } from './implement.server.ts';
import type { Corpus } from './services.server.ts';

export function publicHandlers({ corpus }: { corpus: Corpus }): Handlers<typeof publicReadOperations> {
  return {
    get_brief(input, { branch }) {
      const { markdown, questions, translated } = corpus.build(branch).locales[input.locale].brief;
      return { markdown, questions, locale: input.locale, translated };
    },

    list_experience(input, { branch }) {
      const entries = corpus
        .build(branch)
        .locales[input.locale].entries.filter(
          (e) => (!input.tag || e.tags.includes(input.tag)) && (!input.lens || e.lenses.includes(input.lens)) && (!input.kind || e.kind === input.kind),
        )
        .map(({ overview, contributions, achievements, whyItMatters, keyResults, skills, proofLinks, ...short }) => short);
      if (input.limit === undefined && input.cursor === undefined) return { entries, total: entries.length };
      let start = 0;
      if (input.cursor !== undefined) {
        start = entries.findIndex((e) => e.slug === input.cursor) + 1;
        if (start === 0)
          throw new AppError(
            'bad_request',
            `The cursor "${input.cursor}" is not an entry of this list (it may have been removed); start again without a cursor.`,
            {
              errors: [{ pointer: '/cursor', message: 'not an entry of this list' }],
            },
          );
      }
      const page = entries.slice(start, input.limit === undefined ? undefined : start + input.limit);
      const more = start + page.length < entries.length;
      return { entries: page, total: entries.length, next: more ? page.at(-1)!.slug : null };
    },

    get_entry(input, { branch }) {
      const entry = corpus.build(branch).locales[input.locale].entryBySlug.get(input.slug);
      if (!entry) throw new AppError('not_found', `No entry with slug "${input.slug}". List the slugs with GET /api/v1/entries.`);
      return entry;
    },

    list_lenses(input, { branch }) {
      return { lenses: corpus.build(branch).locales[input.locale].lenses };
    },

    search_subject(input, { branch }) {
      return { query: input.query, results: corpus.build(branch).search.search(input.query, input.limit) };
    },

    get_document(input, { branch }) {
      const doc = corpus.build(branch).locales[input.locale].documents.get(input.name);
      if (!doc) throw new AppError('not_found', `No document named "${input.name}".`);
      return doc;
    },
  };
}
