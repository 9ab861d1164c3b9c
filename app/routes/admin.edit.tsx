// The editor of one content file. Everything the page holds (the text, its undo history, its entry in the change
// set, its problems) belongs to one path: the editor is keyed by branch and path, so a link, back and forward,
// the Problems list or the history that lead to another file make a new editor, never show one file's text under
// another's name.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { FileEditor } from '../admin/FileEditor.tsx';
import { BranchImage } from '../admin/ImageChange.tsx';
import { isMediaPath } from '../../operations/contract/media-files.ts';
import { asEditor, branchOf, readIfExists } from '../admin/session.server.ts';
import { templateFor } from '../admin/groups.ts';
import { isTranslationPath, translationTemplate } from '../admin/translation.server.ts';
import { kindOfPath } from '../admin/schema-help.ts';
import { consoleHref } from '../admin/ui.tsx';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const path = url.searchParams.get('path');
  if (!path) throw redirect(consoleHref('/admin', branchOf(request)));
  const branch = branchOf(request);
  // An image has no text to edit: the page shows it (read in the browser), to be replaced or removed from a change set.
  if (isMediaPath(path)) return { image: true as const, path, branch };
  // A translation opens beside its English. A stray file under content/i18n/ (an unknown locale, a mirror of no
  // source) opens like any file, so that the Problems list's link to it can be followed and the file fixed or deleted.
  const isTranslation = isTranslationPath(path);
  const [schema, file, translation] = await Promise.all([
    asEditor(request, context, 'admin_schema', { branch }),
    readIfExists(request, context, path, branch),
    isTranslation ? asEditor(request, context, 'admin_translation', { path, branch }).catch(() => undefined) : undefined,
  ]);
  const kind = kindOfPath(schema, path)?.kind.kind ?? '';
  // A new file starts from its kind's template; a missing translation from the English it will translate.
  const fromEnglish = !file && translation ? translationTemplate(path, translation.source.now) : undefined;
  const template = file ? '' : (fromEnglish ?? templateFor(schema, kind));
  return { image: false as const, path, branch, schema, file, template, translation, translations: file?.translations };
}

export default function EditorRoute() {
  const data = useLoaderData<typeof loader>();
  if (data.image)
    return (
      <div className="console-page">
        <h1>
          Image <code>{data.path}</code>
        </h1>
        <p className="muted">
          An image has no text to edit. Add images from any file’s editor (Add image…, or drop or paste one); refer to them from front matter by this path.
        </p>
        <BranchImage key={`${data.branch}\u0000${data.path}`} path={data.path} branch={data.branch} label={`On ${data.branch}`} />
      </div>
    );
  return <FileEditor key={`${data.branch}\u0000${data.path}`} {...data} />;
}
