// What a reply rests on: the sources the agent cited, each linked to its page, or (without a model) the
// search passages that match the question.
import type { Translate } from '../i18n/messages.ts';
import type { Passage } from './conversation.ts';
import type { SourceLink } from './sources.ts';

export function SourceList({ sources, t }: { sources: SourceLink[]; t: Translate }) {
  return (
    <div className="chat-sources">
      <h3>{t('chatSources')}</h3>
      <ul>
        {sources.map((s) => (
          <li key={s.slug}>{s.href ? <a href={s.href}>{s.title}</a> : s.title}</li>
        ))}
      </ul>
    </div>
  );
}

/** `lang`: the passages' language, when they were found for a page in another language than this one. */
export function PassageList({ passages, t, lang }: { passages: Passage[]; t: Translate; lang?: string }) {
  return (
    <div className="passages">
      <h3>{t('chatSearchHeading')}</h3>
      {passages.length ? (
        <ul lang={lang}>
          {passages.map((p, i) => (
            <li key={i}>
              <a href={p.href}>{p.title}</a>
              <p>{p.passage}</p>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t('chatNoPassages')}</p>
      )}
    </div>
  );
}
