// Shared pieces of the browser tests: the servers' addresses and the scripted model's control endpoint.
import type { APIRequestContext, Page } from '@playwright/test';
import { locales } from '../../operations/contract/shared.ts';
import type { ScriptedReply } from '../../testing/fake-openai.ts';

const port = Number(process.env.E2E_PORT ?? 3917);
export const site = `http://127.0.0.1:${port}`;
export const preview = `http://127.0.0.1:${port - 1}`;
export const chatSite = `http://127.0.0.1:${port + 1}`;
const control = `http://127.0.0.1:${port + 2}`;
export const adminToken = 'e2e-admin-token-0123456789';

export { locales };
export const htmlLang: Record<string, string> = { en: 'en', zh: 'zh-Hans', 'zh-hant': 'zh-Hant', ja: 'ja', fr: 'fr', es: 'es', eo: 'eo' };
export const prefix = (locale: string) => (locale === 'en' ? '' : `/${locale}`);

/** Queues the scripted model's next replies (after clearing anything left over). */
export async function scriptModel(replies: ScriptedReply[], options: { transcript?: string } = {}) {
  await fetch(`${control}/reset`, { method: 'POST', body: JSON.stringify(options) });
  if (replies.length) await fetch(`${control}/script`, { method: 'POST', body: JSON.stringify({ replies }) });
}

export async function modelRequests(): Promise<Array<{ path: string; aborted: boolean; body: any }>> {
  return (await fetch(`${control}/requests`)).json();
}

let ipCounter = Math.floor(Math.random() * 200);
/** A client address of its own for this test: the chat service trusts X-Forwarded-For, and its budget is per IP. */
export async function ownClientIp(page: Page): Promise<string> {
  const ip = `10.77.${ipCounter % 250}.${++ipCounter % 250}`;
  await page.context().setExtraHTTPHeaders({ 'X-Forwarded-For': ip });
  return ip;
}

export async function json<T = any>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url, { headers: { Accept: 'application/json' } });
  if (!res.ok()) throw new Error(`${url}: ${res.status()}`);
  return (await res.json()) as T;
}
