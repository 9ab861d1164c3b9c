// The brief as the home page shows it: shared by the home route and the console's preview of unsaved text.
import type { MarkdownTree } from '../../markdown/Markdown.tsx';
import { Markdown } from '../../markdown/Markdown.tsx';
import { FallbackNote, recordLang } from '../Content.tsx';
import { useRoot, useT } from '../root-data.ts';

export function BriefSection({ brief }: { brief: { tree: MarkdownTree; translated: boolean } }) {
  const { locale } = useRoot();
  const t = useT();
  return (
    <section className="brief card-surface" aria-labelledby="brief-heading" lang={recordLang(brief.translated, locale)}>
      <h2 id="brief-heading" className="section-title">
        {t('briefHeading')}
      </h2>
      <FallbackNote translated={brief.translated} />
      <Markdown tree={brief.tree} headingOffset={1} className="brief-body" />
    </section>
  );
}
