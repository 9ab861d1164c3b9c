// Admin authentication: the bearer token (compared as digests in constant time).
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../contract/errors.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

export function tokenMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The token of an `Authorization: Bearer <token>` header value. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = authorization ? /^Bearer\s+(.+)$/i.exec(authorization.trim()) : null;
  return match?.[1]?.trim();
}

export function unauthorized(message = 'Send the admin token as "Authorization: Bearer <token>".'): AppError {
  return new AppError('unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer realm="vitae-admin"' } });
}

/** Throws 401 unless the Authorization header carries the admin token. */
export function requireBearer(authorization: string | undefined, adminToken: string): void {
  const given = bearerToken(authorization);
  if (!given) throw unauthorized();
  if (!tokenMatches(given, adminToken)) throw unauthorized('The admin token is not valid.');
}
