// One file's own check (where it sits, its parse, the problems found in it alone) and a checked tree of them: a
// function of the file's path and text only, so a tree's checks carry over to the next tree for every file that did
// not change (tree.ts).
import type { Problem } from '../contract/errors.ts';
import { limits } from '../contract/limits.ts';
import { parseJsonFile, parseMarkdownFile } from './front-matter.ts';
import { locate, type Located } from './locate.ts';
import type { EntryFields, EntryFile, SourceFile } from './model.ts';
import { fileKinds, RelatedTermsFile, SiteFile, type FileKind } from './schema.ts';
import { hashOfParsed } from './source-hash.ts';
import { workingOn } from './working-on.ts';

/**
 * One file's own check: where it sits, its parse, and the problems found in it alone. A function of its path and
 * text only, so a tree's checks carry over to the next tree for every file that did not change.
 */
export interface FileCheck {
  text: string;
  where: Located;
  /** The parse (front matter, or the JSON file's data) when it has no problems of its own. */
  fields?: Record<string, unknown>;
  body: string;
  problems: readonly Problem[];
  /** A valid source file (entry, lens, skill, document, brief) as the model holds it, shared by every model with this text. */
  file?: SourceFile<object> | EntryFile;
}

/**
 * A content tree, checked: each file's own check, and the whole tree's problems by the path they are about. A
 * tree is checked from the last one checked and the files that differ, so a commit's validation parses the files it
 * changes and checks again only what refers to them (the entries naming a skill, a source's translations, the files
 * sharing a slug), not the other 18k files of 100× the demo's content. Never changed once made.
 */
export interface CheckedTree {
  checks: ReadonlyMap<string, FileCheck>;
  /** Every path, in the order files are read (and the model lists them). */
  order: readonly string[];
  /** Valid entries' paths, by each skill they name. */
  skillUsers: ReadonlyMap<string, ReadonlySet<string>>;
  /** The whole tree's problems, by the path each is about (only paths with problems). */
  problems: ReadonlyMap<string, readonly Problem[]>;
}

/** Checks one file on its own (the model's file when it is a valid source file). */
export function checkFile(path: string, text: string): FileCheck {
  workingOn(path);
  const where = locate(path);
  if (where.kind === 'unknown') return { text, where, body: '', problems: [{ path, message: `unexpected file: ${where.reason}` }] };
  // A file pushed from elsewhere is held to what a write through the service is (and what an answer may hold of it).
  if (text.length > limits.contentFile)
    return { text, where, body: '', problems: [{ path, message: `a content file is at most ${limits.contentFile} characters (512 kB); this one has ${text.length}` }] };
  switch (where.kind) {
    case 'site':
    case 'related-terms': {
      const parsed = parseJsonFile(path, text, where.kind === 'site' ? SiteFile : RelatedTermsFile);
      return { text, where, fields: parsed.data, body: '', problems: parsed.problems };
    }
    case 'translation': {
      const source = locate(where.sourcePath) as Extract<Located, { kind: FileKind }>;
      const parsed = parseMarkdownFile(path, text, fileKinds[source.kind].translation);
      return { text, where, fields: parsed.data, body: parsed.body.trim(), problems: parsed.problems };
    }
  }
  const parsed = parseMarkdownFile(path, text, fileKinds[where.kind].fields);
  if (!parsed.data) return { text, where, body: parsed.body, problems: parsed.problems };
  const body = parsed.body.trim();
  if (!body) return { text, where, body, problems: [{ path, pointer: '/body', message: `the body (${fileKinds[where.kind].body}) must not be empty` }] };
  const fields = parsed.data as Record<string, unknown>;
  const hash = hashOfParsed(where.kind, fields, body);
  const file =
    where.kind === 'entry' ? { path, fields: fields as EntryFields, body, hash, slug: where.id, kind: where.entryKind! } : { path, fields, body, hash };
  return { text, where, fields, body, problems: [], file };
}
