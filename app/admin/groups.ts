// The file browser's groups, as an editor thinks of the content (experiences, projects, …, lenses, skills,
// documents, brief, site), derived from the schema's path patterns rather than listed here.
import type { ContentSchemaOut, FileOut } from './types.ts';

export interface FileGroup {
  id: string;
  label: string;
  /** Folder new files of this group go into (absent for single files such as the brief). */
  folder?: string;
  kind: string;
  files: FileOut[];
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const plural = (kind: string) => (kind.endsWith('s') ? kind : `${kind}s`).replace(/ys$/, 'ies');

/** One group per folder a kind's pattern names (entries: one per corpus folder), or per single file. */
export function groupsOf(schema: ContentSchemaOut): Omit<FileGroup, 'files'>[] {
  return schema.fileKinds.flatMap((kind) => {
    const alternatives = /^(.*)\{([^}]*)\}\/<[^>]+>\.\w+$/.exec(kind.pattern);
    if (alternatives)
      return alternatives[2]!.split(',').map((folder) => ({ id: folder, label: capitalise(folder), folder: `${alternatives[1]}${folder}`, kind: kind.kind }));
    const folder = /^(.*)\/<[^>]+>\.\w+$/.exec(kind.pattern)?.[1];
    return [{ id: kind.kind, label: folder ? capitalise(plural(kind.kind)) : capitalise(kind.kind), ...(folder ? { folder } : {}), kind: kind.kind }];
  });
}

/** Source files sorted into their groups (translations appear on their source, not as files of their own). */
export function groupFiles(schema: ContentSchemaOut, files: readonly FileOut[]): FileGroup[] {
  const groups = groupsOf(schema).map((g) => ({ ...g, files: [] as FileOut[] }));
  for (const file of files) {
    if (file.path.startsWith('content/i18n/')) continue;
    const group = groups.find((g) =>
      g.folder
        ? file.path.startsWith(`${g.folder}/`) && !file.path.slice(g.folder.length + 1).includes('/')
        : schema.fileKinds.find((k) => k.kind === g.kind)?.pattern === file.path,
    );
    group?.files.push(file);
  }
  for (const group of groups) group.files.sort((a, b) => (a.title ?? a.path).localeCompare(b.title ?? b.path));
  return groups;
}

/** The translation of a source file in a locale: content/i18n/<locale>/<the path under content/>. */
export const translationPath = (source: string, locale: string) => source.replace(/^content\//, `content/i18n/${locale}/`);

/**
 * A new file's starting text, made from its kind's fields in the schema: every required field with an
 * empty value of its type (the month fields this month), and an empty body: what the body holds is only shown,
 * as the body editor's placeholder (bodyHint), so it can never be saved as the file's text. (A new translation
 * starts from its English instead: app/admin/translation.server.ts.)
 */
export function templateFor(schema: ContentSchemaOut, kindName: string): string {
  const kind = schema.fileKinds.find((k) => k.kind === kindName);
  if (!kind) return '';
  if (kind.pattern.endsWith('.json')) return '{\n}\n';
  const month = new Date().toISOString().slice(0, 7);
  const lines: string[] = [];
  for (const field of kind.fields.filter((f) => f.required)) {
    if (field.type.endsWith('[]')) lines.push(field.allowed || field.name === 'skills' ? `${field.name}: []` : `${field.name}:\n  - ""`);
    else if (field.type === 'boolean') lines.push(`${field.name}: false`);
    else if (field.rules?.some((r) => r.includes('YYYY') || r.includes('\\d{4}-'))) lines.push(`${field.name}: "${month}"`);
    else lines.push(`${field.name}: ""`);
  }
  return `---\n${lines.join('\n')}\n---\n`;
}

/** What a kind's body holds, as its editors' placeholder: "how the subject uses it (Markdown)" → "How the subject uses it (Markdown)." */
export const bodyHint = (description: string) => `${capitalise(description)}.`;
