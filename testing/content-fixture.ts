// Test support: the product's own content without its translations, as a CONTENT_DIR to seed from.
// Builds of it take a fraction of the time (the translations dominate the search index), which keeps
// suites that publish many commits fast without changing what they test about git and the pipeline.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** Path of a `content` folder holding the English sources only (created once per process). */
export function englishOnlyContent(): string {
  if (cached) return cached;
  const root = mkdtempSync(join(tmpdir(), 'vitae-content-en-'));
  const source = fileURLToPath(new URL('../content', import.meta.url));
  cpSync(source, join(root, 'content'), { recursive: true, filter: (path) => !path.startsWith(join(source, 'i18n')) });
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  cached = join(root, 'content');
  return cached;
}
