// Test support: the product's own content without its translations, as a CONTENT_DIR to seed from.
// Builds of it take a fraction of the time (the translations dominate the search index), which keeps
// suites that publish many commits fast without changing what they test about git and the pipeline.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * Path of a `content` folder with every entry (and its translations) copied `times` over under new slugs
 * (`<slug>-x2` …), the rest as it is: the demo at 10× or 100× its size, valid, for growth benchmarks.
 * The caller removes it.
 */
export function grownContent(times: number): string {
  const root = mkdtempSync(join(tmpdir(), `vitae-content-${times}x-`));
  const source = fileURLToPath(new URL('../content', import.meta.url));
  const target = join(root, 'content');
  cpSync(source, target, { recursive: true });
  const entryFiles = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? entryFiles(join(dir, d.name)) : d.name.endsWith('.md') ? [join(dir, d.name)] : [],
    );
  const corpora = [join(target, 'corpus'), ...readdirSync(join(target, 'i18n')).map((locale) => join(target, 'i18n', locale, 'corpus'))];
  for (const corpus of corpora) {
    for (const file of entryFiles(corpus)) {
      const text = readFileSync(file, 'utf8').replace(/^featured: true$/m, 'featured: false');
      for (let copy = 2; copy <= times; copy++) writeFileSync(file.replace(/\.md$/, `-x${copy}.md`), text);
    }
  }
  return target;
}
