// Vocabulary shared by every operation: locales, kinds, tags, lenses, documents and the error body.
import { z } from 'zod';

import { branches, documentNames, kinds, lensIds, locales, tags } from './vocabulary.ts';

export { branches, documentNames, kinds, lensIds, locales, tags };
export type Locale = (typeof locales)[number];
export type Kind = (typeof kinds)[number];
export type Tag = (typeof tags)[number];
export type LensId = (typeof lensIds)[number];
export type DocumentName = (typeof documentNames)[number];
export type Branch = (typeof branches)[number];

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
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'a slug is lowercase letters, digits and single hyphens, like "concierge-copilot"');

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
    path: z.string().optional().describe('File path, for content problems'),
    pointer: z.string().optional().describe('JSON pointer to the field'),
    message: z.string(),
    line: z.number().int().optional(),
  })
  .meta({ id: 'Problem' });

export const ErrorBodySchema = z
  .object({
    code: z.string(),
    message: z.string(),
    errors: z.array(ProblemSchema).optional(),
    path: z.string().optional().describe('409: the file that changed on the branch since the sha the request was based on'),
    currentSha: z.string().nullable().optional().describe('409: that file’s sha now (null: it was deleted)'),
    conflicts: z.array(z.string()).optional().describe('409 on promote: the files both branches changed'),
    retryAfter: z.number().int().optional().describe('429: seconds until a request is accepted again (also in Retry-After)'),
  })
  .meta({ id: 'Error' });
