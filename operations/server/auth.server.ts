// Admin authentication: the bearer token (compared as digests in constant time), and the answers to a
// credential that is missing, wrong, or sent once its failure budget is spent (credential-throttle.server.ts).
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError, rateLimited } from '../contract/errors.ts';

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

/** 429 for a credential checked from an address (or with a secret) whose failure budget is spent. */
export function throttled(retryAfterSeconds: number): AppError {
  return rateLimited(
    `Too many failed sign-ins or admin tokens from this address, or with this credential; try again in ${retryAfterSeconds} seconds.`,
    retryAfterSeconds,
  );
}
