// Admin authentication: the bearer token (compared as digests in constant time).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { AppError } from '../contract/errors.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

export function tokenMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  return match?.[1]?.trim();
}

export function unauthorized(message = 'Send the admin token as "Authorization: Bearer <token>".'): AppError {
  return new AppError('unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer realm="vitae-admin"' } });
}

/** Throws 401 unless the request carries the admin token as a bearer token. */
export function requireBearer(req: IncomingMessage, adminToken: string): void {
  const given = bearerToken(req);
  if (!given) throw unauthorized();
  if (!tokenMatches(given, adminToken)) throw unauthorized('The admin token is not valid.');
}
