// The editor of one content file. Everything the page holds (the text, its undo history, its entry in the change
// set, its problems) belongs to one path: the editor is keyed by branch and path, so a link, back and forward,
// the Problems list or the history that lead to another file make a new editor, never show one file's text under
// another's name.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { FileEditor } from '../admin/FileEditor.tsx';
import { asEditor, branchOf, readIfExists } from '../admin/session.server.ts';
import { templateFor } from '../admin/groups.ts';
import { translationTemplate } from '../admin/translation.server.ts';
import { kindOfPath } from '../admin/schema-help.ts';
import { consoleHref } from '../admin/ui.tsx';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const path = url.searchParams.get('path');
  if (!path) throw redirect(consoleHref('/admin', branchOf(request)));
  const branch = branchOf(request);
  const isTranslation = path.startsWith('content/i18n/');
  const [schema, file, translation] = await Promise.all([
    asEditor(request, context, 'admin_schema', {}),
    readIfExists(request, context, path, branch),
    isTranslation ? asEditor(request, context, 'admin_translation', { path, branch }) : undefined,
  ]);
  // A source file's translations, by locale, for the badges and for what a delete takes with it.
  const folder = path.slice(0, path.lastIndexOf('/'));
  const translations =
    isTranslation || !file
      ? undefined
      : (await asEditor(request, context, 'admin_list_files', { branch, dir: folder })).files.find((f) => f.path === path)?.translations;
  const kind = kindOfPath(schema, path)?.kind.kind ?? '';
  // A new file starts from its kind's template; a missing translation from the English it will translate.
  const fromEnglish = !file && translation?.source.now ? translationTemplate(path, translation.source.now) : undefined;
  const template = file ? '' : (fromEnglish ?? templateFor(schema, kind));
  return { path, branch, schema, file, template, translation, translations };
}

export default function EditorRoute() {
  const data = useLoaderData<typeof loader>();
  return <FileEditor key={`${data.branch}\u0000${data.path}`} {...data} />;
}
