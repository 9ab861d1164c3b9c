// Shared pieces of the browser tests: the servers' addresses and the scripted model's control endpoint.
import { randomInt } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { localeFacts, locales } from '../../operations/contract/locales.ts';
import type { ScriptedReply } from '../../testing/fake-openai.ts';

const port = Number(process.env.E2E_PORT ?? 3917);
export const site = `http://127.0.0.1:${port}`;
export const preview = `http://127.0.0.1:${port - 1}`;
export const chatSite = `http://127.0.0.1:${port + 1}`;
/** The dev preview of the service with the scripted model. */
export const chatPreview = `http://127.0.0.1:${port + 3}`;
const control = `http://127.0.0.1:${port + 2}`;
export const adminToken = 'e2e-admin-token-0123456789';

export { locales };
export const htmlLang: Record<string, string> = Object.fromEntries(locales.map((l) => [l, localeFacts[l].htmlLang]));
export const prefix = (locale: string) => (locale === 'en' ? '' : `/${locale}`);

/** Queues the scripted model's next replies (after clearing anything left over). */
export async function scriptModel(replies: ScriptedReply[], options: { transcript?: string } = {}) {
  await fetch(`${control}/reset`, { method: 'POST', body: JSON.stringify(options) });
  if (replies.length) await fetch(`${control}/script`, { method: 'POST', body: JSON.stringify({ replies }) });
}

export async function modelRequests(): Promise<Array<{ path: string; aborted: boolean; body: any }>> {
  return (await fetch(`${control}/requests`)).json();
}

/**
 * A client address of its own for this test: the chat service trusts X-Forwarded-For, and its budgets (and
 * the failure budget of credentials) are per IP. Random, so a worker restarted after a failure does not reuse one.
 */
export async function ownClientIp(page: Page): Promise<string> {
  const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  await page.context().setExtraHTTPHeaders({ 'X-Forwarded-For': ip });
  return ip;
}

export async function json<T = any>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url, { headers: { Accept: 'application/json' } });
  if (!res.ok()) throw new Error(`${url}: ${res.status()}`);
  return (await res.json()) as T;
}

/** Console errors and uncaught exceptions of a page, collected from now on (React's hydration errors among them). */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return errors;
}
