// Fills in `source: pending` in hand-written translations with the hash of the English they were made
// from (see docs/content-format.md). `--all` re-stamps every translation: only do that after checking
// that each one matches its current English, or stale translations would be hidden.
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readContentDir } from '../operations/repo/local-repo.server.ts';
import { loadContent, locate } from '../operations/content/tree.ts';

const root = resolve(process.argv.find((a) => a.startsWith('--dir='))?.slice(6) ?? 'content');
const all = process.argv.includes('--all');
const files = await readContentDir(root);
// Validate with every translation marked as pending so that hashes of the sources are available.
const { model, problems } = loadContent(files);
if (!model) {
  console.error(`Fix these problems first:\n${problems.map((p) => `${p.path}:${p.line ?? ''} ${p.message}`).join('\n')}`);
  process.exit(1);
}
const hashes = new Map<string, string>();
for (const file of [model.brief, ...model.entries.values(), ...model.lenses.values(), ...model.skills.values(), ...model.documents.values()])
  hashes.set(file.path, file.hash);

let stamped = 0;
for (const [path, text] of files) {
  const where = locate(path);
  if (where.kind !== 'translation') continue;
  const current = /^source:\s*(.*)$/m.exec(text)?.[1]?.trim();
  if (current !== 'pending' && !all) continue;
  const hash = hashes.get(where.sourcePath)!;
  if (current === hash) continue;
  await writeFile(join(root, '..', path), text.replace(/^source:.*$/m, `source: ${hash}`));
  stamped++;
}
console.log(`Stamped ${stamped} translation${stamped === 1 ? '' : 's'}.`);
