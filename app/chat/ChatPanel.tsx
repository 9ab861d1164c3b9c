// The chat panel: a non-modal dialog with a header (new conversation, close), the conversation log with
// its notes and suggested questions, and the composer. The conversation itself lives in useChat; what the
// service can do (chat, transcription) comes from the root loader; a conversation kept from the page before
// (saved-conversation.ts) comes from the widget.
import { useEffect, useId, useRef, useState } from 'react';
import { useRoot, useT } from '../components/root-data.ts';
import { Icon } from '../components/Icons.tsx';
import { useChat } from './use-chat.ts';
import { QuestionBubble, ReplyBubble } from './ChatMessage.tsx';
import { ChatComposer } from './ChatComposer.tsx';
import type { SavedChat } from './saved-conversation.ts';

export function ChatPanel({ open, onClose, restored }: { open: boolean; onClose: () => void; restored?: SavedChat }) {
  const { site, siteUrl, locale, questions, features } = useRoot();
  const t = useT();
  const chat = useChat({ locale, siteUrl, configured: features?.chat ?? true, restored: restored?.conversation, open });
  const { messages } = chat;
  const [input, setInput] = useState('');
  const textarea = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLElement>(null);
  const titleId = useId();
  const title = t('chatTitle', { name: site.subject.name.split(/\s+/)[0]! });

  // Focus goes to the question as the visitor opens the panel; a panel open again as the next page loads leaves it
  // where the page puts it (on a phone, the keyboard would cover the conversation).
  const wasOpen = useRef(restored?.open ?? false);
  useEffect(() => {
    if (open && !wasOpen.current) textarea.current?.focus();
    wasOpen.current = open;
  }, [open]);

  // A new question is brought to the top of the log, its answer below it (an answer found by search comes whole, a
  // long block: following it to its end would hide the question). Then the answer is followed as it streams, unless
  // the visitor scrolled up to read.
  const asked = useRef(0);
  useEffect(() => {
    const el = log.current;
    const questions = messages.filter((m) => m.role === 'user').length;
    const newQuestion = questions > asked.current;
    asked.current = questions;
    if (!el) return;
    const question = newQuestion ? [...el.querySelectorAll<HTMLElement>('.msg-user')].at(-1) : undefined;
    if (question) el.scrollTop += question.getBoundingClientRect().top - el.getBoundingClientRect().top - 8;
    else if (el.scrollHeight - el.scrollTop - el.clientHeight < 120) el.scrollTop = el.scrollHeight;
  }, [messages]);

  const send = (question: string) => {
    if (chat.send(question)) setInput('');
  };

  const reset = () => {
    chat.reset();
    textarea.current?.focus();
  };

  return (
    <section
      id="chat-panel"
      className="chat-panel"
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      hidden={!open}
      ref={panel}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
        else if (event.key === 'Tab' && panel.current && window.matchMedia(COVERS_PAGE).matches) keepFocusIn(panel.current, event);
      }}
    >
      <div className="chat-header">
        <div>
          <h2 id={titleId}>{title}</h2>
          <p>{t('chatIntro')}</p>
        </div>
        <div className="chat-header-actions">
          {messages.length ? (
            <button type="button" className="icon-button" onClick={reset} title={t('chatNew')}>
              <Icon name="plus" />
              <span className="sr-only">{t('chatNew')}</span>
            </button>
          ) : null}
          <button type="button" className="icon-button" onClick={onClose} title={t('chatClose')}>
            <Icon name="close" />
            <span className="sr-only">{t('chatClose')}</span>
          </button>
        </div>
      </div>

      <div
        className="chat-log"
        ref={log}
        role="log"
        aria-live="polite"
        aria-busy={chat.streaming}
        aria-label={title}
        tabIndex={0}
        onClick={(event) => {
          // Where the panel covers the page, a link followed from it (a source, a passage) closes it, so that the page
          // it leads to is seen, not the panel again; the conversation stays for the launcher to reopen.
          const link = (event.target as Element).closest('a[href]');
          if (link && !event.metaKey && !event.ctrlKey && !event.shiftKey && window.matchMedia(COVERS_PAGE).matches) onClose();
        }}
      >
        {chat.searchOnly ? (
          <p className="chat-note" data-testid="chat-search-mode">
            {t('chatSearchMode')}
          </p>
        ) : null}
        {chat.trimmed ? <p className="chat-note">{t('chatTrimmed')}</p> : null}
        {messages.length === 0 && questions.length ? (
          <div className="chat-suggestions">
            <p id={`${titleId}-s`}>{t('chatSuggestionsLabel')}</p>
            <ul aria-labelledby={`${titleId}-s`}>
              {questions.map((q) => (
                <li key={q}>
                  <button type="button" onClick={() => send(q)} disabled={chat.waitSeconds > 0}>
                    {q}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {messages.map((m, i) =>
          m.role === 'user' ? (
            <QuestionBubble key={m.id} message={m} t={t} pageLocale={locale} />
          ) : (
            <ReplyBubble
              key={m.id}
              message={m}
              t={t}
              siteUrl={siteUrl}
              pageLocale={locale}
              last={i === messages.length - 1}
              waitSeconds={chat.waitSeconds}
              onRetry={() => chat.retry(m.id)}
            />
          ),
        )}
      </div>

      <ChatComposer
        value={input}
        onChange={setInput}
        onSend={() => send(input)}
        onStop={chat.stop}
        streaming={chat.streaming}
        waitSeconds={chat.waitSeconds}
        voice={features?.transcription ?? false}
        locale={locale}
        t={t}
        inputRef={textarea}
      />
    </section>
  );
}

/** Where the panel covers the whole page (styles.css: a phone), so the page behind it cannot take focus either. */
const COVERS_PAGE = '(max-width: 600px)';
const FOCUSABLE = 'a[href], button:not([disabled]), textarea:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab from the panel's last control goes to its first, Shift+Tab from its first to its last: focus stays where the eye is. */
function keepFocusIn(panel: HTMLElement, event: { shiftKey: boolean; preventDefault(): void }): void {
  const controls = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
  const [first, last] = [controls[0], controls.at(-1)];
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === panel)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}
