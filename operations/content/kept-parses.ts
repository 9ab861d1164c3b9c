// Parses remembered from a kept build's model: a restart loads a build from disk (operations/corpus/persist.ts)
// whose model already holds every file's parse, so validating the same files again need not parse them.
import type { z } from 'zod';
import { rememberParsedMarkdown } from './front-matter.ts';
import type { Pause } from './pause.ts';
import { fileKinds, type FileKind } from './schema.ts';
import { rememberHash } from './source-hash.ts';
import type { ContentFiles, ContentModel, SourceFile } from './tree.ts';

/**
 * Remembers the parse of every Markdown file of `model`, a kept build's model of `texts` (persist.ts), with each
 * source's hash: loading these files again, or a commit's tree that changed a few of them, then parses only
 * what changed. After a restart at 100× the demo content, parsing them again took 2.7 s of this thread.
 */
export async function rememberParses(model: ContentModel, texts: ContentFiles, pause: Pause): Promise<void> {
  let n = 0;
  const remember = async (path: string, schema: z.ZodType, fields: object, hash?: string) => {
    const text = texts.get(path);
    if (text === undefined) return;
    rememberParsedMarkdown(path, text, schema, fields);
    if (hash !== undefined) rememberHash(fields, hash);
    if (++n % 512 === 0) await pause();
  };
  const sources: Array<[FileKind, SourceFile<object>]> = [
    ['brief', model.brief],
    ...[...model.entries.values()].map((f): [FileKind, SourceFile<object>] => ['entry', f]),
    ...[...model.lenses.values()].map((f): [FileKind, SourceFile<object>] => ['lens', f]),
    ...[...model.skills.values()].map((f): [FileKind, SourceFile<object>] => ['skill', f]),
    ...[...model.documents.values()].map((f): [FileKind, SourceFile<object>] => ['document', f]),
  ];
  const kindOf = new Map<string, FileKind>();
  for (const [kind, file] of sources) {
    kindOf.set(file.path, kind);
    await remember(file.path, fileKinds[kind].fields, file.fields, file.hash);
  }
  for (const [sourcePath, byLocale] of model.translations) {
    const kind = kindOf.get(sourcePath);
    if (!kind) continue;
    for (const translation of byLocale.values()) await remember(translation.path, fileKinds[kind].translation, translation.fields);
  }
}
