// Parsing input at an edge: one Problem per invalid field (with REST names where they differ), and a
// 400 `bad_request` that lists them. Every surface (REST, chat, MCP, the site) reports input errors alike.
import type { z } from 'zod';
import { AppError, type Problem } from '../contract/errors.ts';
import { describeIssue, pointerOf } from '../content/front-matter.ts';

/** Problems for a failed parse, naming fields by their REST names (`rename`: field → REST name). */
export function inputProblems(error: z.ZodError, rename: Record<string, string> = {}): Problem[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((k, i) => (i === 0 && typeof k === 'string' && rename[k] ? rename[k] : k));
    return { pointer: pointerOf(path as PropertyKey[]), message: describeIssue({ ...issue, path } as z.core.$ZodIssue) };
  });
}

export function badRequest(errors: Problem[], prefix = ''): AppError {
  return new AppError('bad_request', `${prefix}${errors.map((e) => e.message).join('; ')}.`, { errors });
}

/** Parses `raw` with `schema`, or throws 400 with one Problem per invalid field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, raw: unknown, options: { rename?: Record<string, string>; prefix?: string } = {}): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw badRequest(inputProblems(result.error, options.rename), options.prefix);
  return result.data;
}
