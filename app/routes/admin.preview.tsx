// The console's preview: POST { path, branch, locale, content } → the page as the site would show it with
// that unsaved text, as a complete HTML document for the preview frame. admin_preview makes the public
// record with the build's own code; the site's own page components render it, in the chosen locale, with
// the site's stylesheet. Nothing is written.
import type { ActionFunctionArgs } from '@remix-run/node';
import { renderToString } from 'react-dom/server';
import { z } from 'zod';
import { InputError, parseInput } from '../../operations/contract/issues.ts';
import { Branch, Locale } from '../../operations/contract/shared.ts';
import { adminPreview } from '../../operations/contract/admin.ts';
import styles from '../styles.css';
import { asEditor } from '../admin/session.server.ts';
import { RootDataProvider } from '../components/root-data.ts';
import { BriefSection } from '../components/pages/BriefSection.tsx';
import { DocumentArticle } from '../components/pages/DocumentArticle.tsx';
import { EntryArticle } from '../components/pages/EntryArticle.tsx';
import { LensArticle } from '../components/pages/LensArticle.tsx';
import { localeFacts } from '../i18n/locales.ts';
import { messagesFor } from '../i18n/messages.server.ts';
import { markdownTree, sectionTree } from '../markdown/tree.server.ts';
import { read } from '../utils/operations.server.ts';
import type { RootData } from '../utils/seo.ts';

export const handle = { console: true };

const PreviewRequest = z.object({ path: adminPreview.input.shape.path, content: adminPreview.input.shape.content, branch: Branch, locale: Locale });

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function page(locale: RootData['locale'], body: string, note?: string): Response {
  const facts = localeFacts[locale];
  const html = `<!doctype html><html lang="${facts.htmlLang}" dir="${facts.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><base target="_blank"><link rel="stylesheet" href="${styles}"></head><body><main id="main">${note ? `<p class="preview-note">${escapeHtml(note)}</p>` : ''}${body}</main></body></html>`;
  return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  let input: z.output<typeof PreviewRequest>;
  try {
    input = parseInput(PreviewRequest, await request.json());
  } catch (error) {
    // The gate has checked it is JSON; a field the preview cannot use is the caller's 400, named, as over REST.
    if (error instanceof InputError) return Response.json(error.toBody(), { status: 400, headers: { 'Cache-Control': 'no-store' } });
    throw error;
  }
  const preview = await asEditor(request, context, 'admin_preview', input);
  // The site of the branch being previewed, which need not be the one this request came to.
  const onBranch = { ...context, branch: input.branch };
  const identity = await read(onBranch, 'get_site', { locale: preview.locale }, request);
  const root: RootData = {
    locale: preview.locale,
    messages: messagesFor(preview.locale),
    questions: [],
    site: {
      name: identity.name,
      shortName: identity.shortName,
      description: identity.description,
      fictional: identity.fictional,
      subject: identity.subject,
      links: identity.links,
    },
    siteUrl: identity.url,
    preview: input.branch === 'dev',
  };
  const render = (element: React.ReactElement) => renderToString(<RootDataProvider value={root}>{element}</RootDataProvider>);
  const named = (slug: string, names: Record<string, string>) => names[slug] ?? slug;

  if (preview.entry) {
    const entry = preview.entry;
    return page(
      preview.locale,
      render(
        <EntryArticle
          entry={entry}
          trees={{ overview: markdownTree(entry.overview), whyItMatters: markdownTree(entry.whyItMatters) }}
          skills={entry.skills.map((slug) => ({ slug, name: named(slug, preview.labels.skills) }))}
          lenses={entry.lenses.map((id) => ({ id, title: named(id, preview.labels.lenses) }))}
        />,
      ),
    );
  }
  if (preview.lens) {
    const evidence = await read(onBranch, 'list_experience', { lens: preview.lens.id, locale: preview.locale }, request);
    return page(
      preview.locale,
      render(<LensArticle lens={preview.lens} pitch={markdownTree(preview.lens.pitch)} entries={evidence.entries} />),
      'The evidence listed is the live build’s.',
    );
  }
  if (preview.document) return page(preview.locale, render(<DocumentArticle document={preview.document} tree={sectionTree(preview.document.markdown)} />));
  if (preview.brief)
    return page(
      preview.locale,
      render(<BriefSection brief={{ tree: markdownTree(preview.brief.markdown), translated: preview.brief.translated }} />),
      'The brief as the home page shows it.',
    );
  const what =
    preview.kind === 'skill'
      ? 'A skill has no page of its own: its name shows on the entries that use it.'
      : preview.kind === 'site'
        ? 'The site file has no page of its own: it names the site and its subject in every page’s header.'
        : 'The page cannot be shown while the content has problems; fix them and the preview follows.';
  return page(preview.locale, '', what);
}
