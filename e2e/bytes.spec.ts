// Correct bytes on every page: each URL of the sitemap, in every locale, answers valid UTF-8 without a NUL
// byte (React's streaming renderer used to leave NULs where a multibyte character met its buffer's end).
import { expect, test } from '@playwright/test';
import { site } from './support/helpers.ts';

test('every page of the sitemap, in every locale, is valid UTF-8 without NUL bytes', async ({ request }) => {
  const sitemap = await (await request.get(`${site}/sitemap.xml`)).text();
  const urls = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/^https?:\/\/[^/]+/, site));
  expect(urls.length).toBeGreaterThan(200);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const broken: string[] = [];
  for (let i = 0; i < urls.length; i += 16) {
    await Promise.all(
      urls.slice(i, i + 16).map(async (url) => {
        const res = await request.get(url);
        expect(res.status(), url).toBe(200);
        const body = await res.body();
        if (body.includes(0)) broken.push(`${url}: ${body.filter((b) => b === 0).length} NUL byte(s)`);
        try {
          decoder.decode(body);
        } catch {
          broken.push(`${url}: not valid UTF-8`);
        }
      }),
    );
  }
  expect(broken).toEqual([]);
});
