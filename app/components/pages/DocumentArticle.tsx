// A reference document's page body: shared by the document route and the console's preview of unsaved text.
import type { MarkdownTree } from '../../markdown/Markdown.tsx';
import { Markdown } from '../../markdown/Markdown.tsx';
import { FallbackNote, recordLang } from '../Content.tsx';
import { useHref, useRoot, useT } from '../root-data.ts';
import { formatDay } from '../../i18n/messages.ts';
import type { DocumentData } from '../../utils/types.ts';

export interface DocumentArticleProps {
  document: DocumentData;
  tree: MarkdownTree;
}

export function DocumentArticle({ document, tree }: DocumentArticleProps) {
  const { locale } = useRoot();
  const t = useT();
  const href = useHref();
  return (
    <article className="page document-page">
      <nav aria-label={t('breadcrumb')} className="breadcrumb">
        <ol>
          <li>
            <a href={href('/documents')}>{t('documentsTitle')}</a>
          </li>
        </ol>
      </nav>
      <FallbackNote translated={document.translated} />
      <header className="page-header">
        <h1 lang={recordLang(document.translated, locale)}>{document.title}</h1>
        <p className="muted">{t('updated', { date: formatDay(locale, document.updatedAt) })}</p>
      </header>
      <div lang={recordLang(document.translated, locale)}>
        <Markdown tree={tree} headingOffset={0} className="document-body" />
      </div>
    </article>
  );
}
