// Vocabulary shared by every operation: locales, kinds, tags, lenses, documents and the error body.
import { z } from 'zod';

import { errorTable, type ErrorCode } from './errors.ts';
import { limits } from './limits.ts';
import { Role } from './roles.ts';
import { branches, documentNames, kinds, lensIds, locales, tags } from './vocabulary.ts';
import type * as vocabulary from './vocabulary.ts';

export { branches, documentNames, kinds, lensIds, locales, tags };
// vocabulary.ts's own types, under the names that here also hold their zod enums.
export type Locale = vocabulary.Locale;
export type Kind = vocabulary.Kind;
export type Tag = vocabulary.Tag;
export type LensId = vocabulary.LensId;
export type DocumentName = vocabulary.DocumentName;
export type Branch = vocabulary.Branch;

export const Locale = z.enum(locales).describe('Locale of translated fields; records without a current translation fall back to English.');
/** The locales a source file is translated into: every one but English. */
export const translationLocales = locales.filter((l): l is TranslationLocale => l !== 'en');
export type TranslationLocale = Exclude<Locale, 'en'>;
export const TranslationLocale = Locale.exclude(['en']).describe('A locale a source file is translated into (every locale but en)');
export const Kind = z.enum(kinds).describe('Entry kind');
export const Tag = z.enum(tags);
export const LensId = z.enum(lensIds);
export const DocumentName = z.enum(documentNames);
export const Branch = z.enum(branches).describe('Content branch: main (published) or dev (preview)');
export const Slug = z
  .string()
  .min(1)
  .max(limits.slug)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'a slug is lowercase letters, digits and single hyphens, like "concierge-copilot"');

/**
 * Words for people (a title, a message, a path, a question), at most `max` long. No format or pattern fits them, so
 * their JSON Schema says what they are instead: `contentMediaType` text/plain (text/markdown, text/x-diff for those).
 */
export const TEXT = { contentMediaType: 'text/plain' } as const;
export const PlainText = (max: number) => z.string().max(max).meta(TEXT);
export const MarkdownText = (max: number) => z.string().max(max).meta({ contentMediaType: 'text/markdown' });
export const DiffText = (max: number) => z.string().max(max).meta({ contentMediaType: 'text/x-diff' });
/** An absolute address: the site's own pages and API, or a link the content gives. */
export const Url = z.url().max(limits.url);
/** A git object name (blob or commit), as the repository gives it. */
export const GitSha = z
  .string()
  .length(40)
  .regex(/^[0-9a-f]{40}$/);
/** A moment in ISO 8601, with its offset (git's) or Z. */
export const DateTime = z.iso.datetime({ offset: true }).max(64);
/** A path in the content repository, as an answer names it. */
export const RepoPath = PlainText(limits.path);

/**
 * A whole number that may arrive as text (a query string): decimal digits only, without sign, leading zeros,
 * hex, exponent or spaces, so that "0x10", "+5" and "05" are refused rather than guessed at. Numbers (JSON,
 * MCP) pass as they are; `schema` adds the bounds.
 */
export const wholeNumber = (schema: z.ZodNumber) =>
  z.preprocess((value, ctx) => {
    if (typeof value !== 'string') return value;
    if (/^(?:0|[1-9][0-9]{0,14})$/.test(value)) return Number(value);
    ctx.issues.push({ code: 'custom', message: 'must be a whole number in decimal digits, without sign or leading zeros', input: value });
    return value;
  }, schema);

export const ProblemSchema = z
  .object({
    path: RepoPath.optional().describe('File path, for content problems'),
    pointer: PlainText(limits.path).optional().describe('JSON pointer to the field'),
    message: PlainText(limits.message),
    line: z.number().int().min(1).max(limits.contentFile).optional(),
  })
  .meta({ id: 'Problem' });

/** A list of problems in an answer: at most `limits.problems` (see `listedProblems`). */
export const Problems = z.array(ProblemSchema).max(limits.problems);

export const ErrorBodySchema = z
  .object({
    code: z.enum(Object.keys(errorTable) as [ErrorCode, ...ErrorCode[]]),
    message: PlainText(limits.message),
    errors: Problems.optional(),
    path: RepoPath.optional().describe('409: the file that changed on the branch since the sha the request was based on'),
    currentSha: GitSha.nullable().optional().describe('409: that file’s sha now (null: it was deleted)'),
    conflicts: z.array(RepoPath).max(limits.contentFiles).optional().describe('409 on promote: the files both branches changed'),
    retryAfter: z.number().int().min(1).max(86_400).optional().describe('429: seconds until a request is accepted again (also in Retry-After)'),
    role: Role.optional().describe('403: the role the call needs (the account has the other)'),
  })
  .meta({ id: 'Error' });
