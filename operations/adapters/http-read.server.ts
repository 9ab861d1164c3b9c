// Reading requests, shared by every endpoint: bodies within their limit and the service-wide read budget, UTF-8,
// JSON with a bounded depth, the media type, paths and query strings (the one check of a malformed address).
import type { IncomingMessage } from 'node:http';
import { AppError } from '../contract/errors.ts';

/** The largest request body an endpoint reads unless it says otherwise. */
export const MAX_BODY = 1024 * 1024;

/**
 * Bytes of request bodies the whole service holds while reading them, at most: many large bodies arriving at
 * once (each within its route's limit) wait for a moment (503 with Retry-After) rather than fill the memory.
 * Sixteen bodies of the largest limit (a recording to transcribe) fit, or a hundred commits of a megabyte.
 */
export const READ_BUDGET = 128 * 1024 * 1024;
let reading = 0;

/** Bytes of request bodies being read right now, service-wide (for tests and /api/health). */
export const bytesBeingRead = () => reading;

const overBudget = () =>
  new AppError('unavailable', 'The service is reading too many large requests at once; send it again in a moment.', { headers: { 'Retry-After': '1' } });

/**
 * The body as bytes, refusing more than `limit` (413) whether or not Content-Length said so, and counting what
 * it holds against the service-wide READ_BUDGET: a declared length is reserved before the first byte is read.
 */
export async function readBody(req: IncomingMessage, limit = MAX_BODY): Promise<Buffer> {
  const tooLarge = () => new AppError('payload_too_large', `The request body is larger than ${Math.round(limit / 1024)} kB.`);
  const declared = Number(req.headers['content-length']);
  if (declared > limit) throw tooLarge();
  let held = Number.isSafeInteger(declared) && declared > 0 ? declared : 0;
  if (reading + held > READ_BUDGET) throw overBudget();
  reading += held;
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > limit) throw tooLarge();
      if (size > held) {
        if (reading + size - held > READ_BUDGET) throw overBudget();
        reading += size - held;
        held = size;
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  } finally {
    reading -= held;
  }
}

/** How deep a JSON body may nest: far more than any operation needs, far less than a parser's stack. */
export const MAX_JSON_DEPTH = 64;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as UTF-8 text; anything else is a 400 that says so (never silently U+FFFD). */
export function decodeUtf8(bytes: Uint8Array, what = 'The request body'): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new AppError('bad_request', `${what} is not valid UTF-8; send text encoded as UTF-8.`, {
      errors: [{ pointer: '', message: 'the body is not valid UTF-8' }],
    });
  }
}

/** JSON text as a value, refusing malformed JSON and nesting deeper than MAX_JSON_DEPTH (400, never a stack overflow). */
export function parseJson(text: string): unknown {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH)
        throw new AppError('bad_request', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`, {
          errors: [{ pointer: '', message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` }],
        });
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError('bad_request', `The request body is not valid JSON: ${(error as Error).message}`, {
      errors: [{ pointer: '', message: 'malformed JSON' }],
    });
  }
}

/** The media type of the request body (lower case, without parameters); '' when none is given. */
export const mediaTypeOf = (req: IncomingMessage): string =>
  String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();

/**
 * Refuses a body that says it is not JSON (415). JSON and `+json` types pass, and so does a body without a
 * Content-Type (scripts); `text/plain` does not, so a cross-site form cannot post to a JSON endpoint.
 */
export function requireJsonType(req: IncomingMessage, also: readonly string[] = []): string {
  const type = mediaTypeOf(req);
  if (!type || type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type) || also.includes(type)) return type;
  throw new AppError('unsupported_media_type', `The request body must be JSON (Content-Type: application/json), not ${type}.`);
}

/**
 * The body as JSON (or, where `form` allows it, a urlencoded HTML form). `undefined` when there is no body at
 * all, so a caller can tell "no body" from "an empty object".
 */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY, { form = false }: { form?: boolean } = {}): Promise<unknown> {
  const bytes = await readBody(req, limit);
  if (!bytes.length) return undefined;
  const type = requireJsonType(req, form ? ['application/x-www-form-urlencoded'] : []);
  const text = decodeUtf8(bytes).trim();
  if (!text) return undefined;
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(parseQuery(text));
  return parseJson(text);
}

/**
 * A request path (or one segment of it) decoded, or undefined when its percent-encoding is malformed ("/entries/%FF"):
 * the one check of a malformed address, which each door answers in its own way (a 400 error body, the site's 400
 * page, no static file, no route template).
 */
export function decodedPath(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

export function decodeComponent(value: string, what: string): string {
  const decoded = decodedPath(value);
  if (decoded === undefined)
    throw new AppError('bad_request', `Malformed percent-encoding in ${what}.`, {
      errors: [{ pointer: `/${what}`, message: `${what} has malformed percent-encoding` }],
    });
  return decoded;
}

export function parseQuery(query: string): Array<[string, string]> {
  if (!query) return [];
  return query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
      const name = decodeComponent(rawName.replace(/\+/g, ' '), 'the query string');
      return [name, decodeComponent(rawValue.replace(/\+/g, ' '), name)];
    });
}

/** One request header as a string (repeated headers joined), for code that also reads Fetch requests. */
export const headerOf =
  (req: IncomingMessage) =>
  (name: string): string | undefined => {
    const value = req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  };
