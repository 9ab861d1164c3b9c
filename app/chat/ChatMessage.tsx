// One message of the conversation. A reply shows its tool steps, the answer as safe Markdown (its
// "(slug)" mentions linked once it is complete), its sources or search passages, an honest note for
// what went wrong, and copy and retry.
import { useState } from 'react';
import type { Translate } from '../i18n/messages.ts';
import { htmlLang, type Locale } from '../i18n/locales.ts';
import { Icon } from '../components/Icons.tsx';
import { MarkdownText } from '../markdown/MarkdownText.tsx';
import type { AssistantMessage, Problem, UserMessage } from './conversation.ts';
import { linkSlugs, sourceLinks } from './sources.ts';
import { PassageList, SourceList } from './ChatSources.tsx';
import { ToolSteps } from './ToolSteps.tsx';

/** A message's `lang` when it was asked on a page in another language than this one (before a language switch). */
export function messageLang(message: { locale?: Locale }, pageLocale: Locale): string | undefined {
  return message.locale && message.locale !== pageLocale ? htmlLang[message.locale] : undefined;
}

export function QuestionBubble({ message, t, pageLocale }: { message: UserMessage; t: Translate; pageLocale: Locale }) {
  return (
    <div className="msg msg-user">
      <span className="sr-only">{t('chatYou')}: </span>
      <p lang={messageLang(message, pageLocale)}>{message.content}</p>
    </div>
  );
}

export function ReplyBubble(props: {
  message: AssistantMessage;
  t: Translate;
  siteUrl: string;
  pageLocale: Locale;
  /** The last message of the conversation: only it offers a retry. */
  last: boolean;
  waitSeconds: number;
  onRetry(): void;
}) {
  const { message: m, t, waitSeconds } = props;
  const streaming = m.status === 'streaming';
  const sources = sourceLinks(m.sources, props.siteUrl);
  const lang = messageLang(m, props.pageLocale);
  return (
    <div className="msg msg-assistant" data-status={m.status}>
      <span className="sr-only">{t('chatAssistant')}: </span>
      {m.steps.length ? <ToolSteps steps={m.steps} t={t} /> : null}
      {streaming && !m.content && !m.steps.some((s) => !s.done) ? <Thinking t={t} /> : null}
      {m.content ? (
        <div lang={lang}>
          <MarkdownText source={streaming ? m.content : linkSlugs(m.content, sources)} className="answer" headingOffset={2} externalRel="nofollow noopener" />
        </div>
      ) : null}
      {m.passages ? <PassageList passages={m.passages} t={t} lang={lang} /> : null}
      {m.status === 'stopped' ? <p className="chat-status">{t('chatStopped')}</p> : null}
      {m.problem ? <ProblemNote problem={m.problem} t={t} waitSeconds={waitSeconds} /> : null}
      {sources.length && !streaming ? <SourceList sources={sources} t={t} /> : null}
      {!streaming ? (
        <div className="msg-actions">
          {m.content ? <CopyButton text={m.content} t={t} /> : null}
          {props.last && (m.status === 'error' || m.status === 'stopped' || m.content) && !m.passages ? (
            <button type="button" className="chip" onClick={props.onRetry} disabled={waitSeconds > 0}>
              <Icon name="retry" size={14} />
              {t('chatRetry')}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function Thinking({ t }: { t: Translate }) {
  return (
    <p className="thinking">
      <span className="dots" aria-hidden="true">
        <i />
        <i />
        <i />
      </span>
      {t('chatThinking')}
    </p>
  );
}

function ProblemNote({ problem, t, waitSeconds }: { problem: Problem; t: Translate; waitSeconds: number }) {
  const text =
    problem.kind === 'rate'
      ? waitSeconds > 0
        ? t('chatRateLimited', { s: waitSeconds })
        : t('chatRateLimitedOver')
      : problem.kind === 'network'
        ? t('chatNetwork')
        : problem.kind === 'rejected'
          ? t('chatRejected', { message: problem.message })
          : t('chatUnavailable');
  return (
    <p className={`chat-problem ${problem.kind}`} data-testid={`chat-problem-${problem.kind}`}>
      <Icon name="warning" size={16} />
      <span>{text}</span>
    </p>
  );
}

/** Copies the answer's Markdown; says "Copied" for two seconds. */
function CopyButton({ text, t }: { text: string; t: Translate }) {
  const [copied, setCopied] = useState(0);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      const at = Date.now();
      setCopied(at);
      setTimeout(() => setCopied((c) => (c === at ? 0 : c)), 2000);
    } catch {
      // Clipboard access refused: nothing useful to say beyond the button not confirming.
    }
  };
  return (
    <button type="button" className="chip" onClick={() => void copy()}>
      <Icon name={copied ? 'check' : 'copy'} size={14} />
      <span aria-live="polite">{copied ? t('chatCopied') : t('chatCopy')}</span>
    </button>
  );
}
