// The chat panel: streams /api/chat with status events, shows the agent's tool steps as they happen,
// renders answers as safe Markdown with their sources, and offers stop, retry and copy. Honest states
// for 429 (with the wait) and 503; without a model it answers with matching search passages instead.
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { sitePath, type Locale } from '../i18n/locales.ts';
import type { Translate } from '../i18n/messages.ts';
import { useRoot, useT } from '../components/root-data.ts';
import { Icon } from '../components/Icons.tsx';
import { MarkdownText } from '../markdown/MarkdownText.tsx';
import { createStreamParser, retryAfterSeconds, type ChatEvent } from './stream.ts';
import { keepRecent, MAX_CONTENT, requestMessages } from './history.ts';
import { fallbackSource, linkSlugs, sourceDirectory, type SourceLink } from './sources.ts';
import { VoiceButton } from './VoiceButton.tsx';

interface Step {
  name: string;
  input?: Record<string, unknown>;
  done: boolean;
  found?: number;
}

interface Passage {
  title: string;
  passage: string;
  href: string;
}

type Problem =
  | { kind: 'rate'; until: number }
  | { kind: 'unavailable'; message?: string }
  | { kind: 'network' }
  | { kind: 'rejected'; message: string };

interface UserMessage {
  id: number;
  role: 'user';
  content: string;
}

interface AssistantMessage {
  id: number;
  role: 'assistant';
  content: string;
  status: 'streaming' | 'done' | 'stopped' | 'error';
  steps: Step[];
  sources: string[];
  problem?: Problem;
  /** Search passages shown instead of an answer when no model is configured. */
  passages?: Passage[];
}

type Message = UserMessage | AssistantMessage;

let nextId = 1;

export function ChatPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { site, locale, questions } = useRoot();
  const t = useT();
  const firstName = site.subject.name.split(/\s+/)[0]!;
  const [messages, setMessages] = useState<Message[]>([]);
  const [trimmed, setTrimmed] = useState(false);
  const [input, setInput] = useState('');
  const [chatConfigured, setChatConfigured] = useState<boolean | undefined>(undefined);
  const [voiceConfigured, setVoiceConfigured] = useState(false);
  const [directory, setDirectory] = useState<Map<string, SourceLink>>(new Map());
  const [copied, setCopied] = useState<number | undefined>();
  const [now, setNow] = useState(() => Date.now());
  const controller = useRef<AbortController | null>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const titleId = useId();

  const streaming = messages.some((m) => m.role === 'assistant' && m.status === 'streaming');
  const rateLimit = [...messages].reverse().find((m): m is AssistantMessage => m.role === 'assistant' && m.problem?.kind === 'rate')?.problem as
    | { kind: 'rate'; until: number }
    | undefined;
  const waitSeconds = rateLimit ? Math.max(0, Math.ceil((rateLimit.until - now) / 1000)) : 0;

  useEffect(() => {
    let live = true;
    fetch('/api/health')
      .then((r) => r.json())
      .then((health: { chat?: { configured?: boolean }; transcription?: { configured?: boolean } }) => {
        if (!live) return;
        setChatConfigured(health.chat?.configured ?? true);
        setVoiceConfigured(Boolean(health.transcription?.configured));
      })
      .catch(() => live && setChatConfigured(true));
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (open) textarea.current?.focus();
  }, [open]);

  useEffect(() => {
    if (!waitSeconds) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waitSeconds]);

  // Follow the answer as it streams, unless the visitor scrolled up to read.
  useEffect(() => {
    const el = log.current;
    if (el && el.scrollHeight - el.scrollTop - el.clientHeight < 120) el.scrollTop = el.scrollHeight;
  }, [messages]);

  const update = useCallback((id: number, change: (m: AssistantMessage) => AssistantMessage) => {
    setMessages((list) => list.map((m) => (m.id === id && m.role === 'assistant' ? change(m) : m)));
  }, []);

  const resolveSources = useCallback(
    (slugs: string[]) => {
      if (slugs.length) void sourceDirectory(locale).then(setDirectory);
    },
    [locale],
  );

  const searchInstead = useCallback(
    async (id: number, question: string) => {
      try {
        const res = await fetch(`/api/v1/search?q=${encodeURIComponent(question.slice(0, 500))}&limit=5`);
        if (!res.ok) throw new Error(String(res.status));
        const body = (await res.json()) as { results: Array<{ title: string; passage: string; url: string }> };
        const passages = body.results.map((r) => ({ title: r.title, passage: r.passage, href: sitePath(r.url, window.location.origin) }));
        update(id, (m) => ({ ...m, status: 'done', passages }));
      } catch {
        update(id, (m) => ({ ...m, status: 'error', problem: { kind: 'network' } }));
      }
    },
    [update],
  );

  const ask = useCallback(
    async (question: string, history: Message[]) => {
      const text = question.trim().slice(0, MAX_CONTENT);
      if (!text) return;
      const user: UserMessage = { id: nextId++, role: 'user', content: text };
      const reply: AssistantMessage = { id: nextId++, role: 'assistant', content: '', status: 'streaming', steps: [], sources: [] };
      const kept = keepRecent([...history, user, reply]);
      setMessages(kept.messages);
      if (kept.trimmed) setTrimmed(true);
      setInput('');

      if (chatConfigured === false) return searchInstead(reply.id, text);

      const turns = history
        .filter((m) => m.role === 'user' || (m.status !== 'error' && !m.passages))
        .map((m) => ({ role: m.role, content: m.content }));
      const abort = new AbortController();
      controller.current = abort;
      try {
        const res = await fetch('/api/chat', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ messages: requestMessages(turns, text), locale, events: true }),
          signal: abort.signal,
        });
        if (!res.ok) {
          const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
          if (res.status === 503 && body.code === 'chat_not_configured') {
            setChatConfigured(false);
            return searchInstead(reply.id, text);
          }
          const problem: Problem =
            res.status === 429
              ? { kind: 'rate', until: Date.now() + retryAfterSeconds(res.headers.get('Retry-After')) * 1000 }
              : res.status === 400
                ? { kind: 'rejected', message: body.message ?? '' }
                : { kind: 'unavailable' };
          setNow(Date.now());
          update(reply.id, (m) => ({ ...m, status: 'error', problem }));
          return;
        }
        const reader = res.body!.getReader();
        const decoder = new TextDecoder();
        const parser = createStreamParser();
        const apply = (parts: ReturnType<typeof parser.push>) => {
          if (!parts.length) return;
          update(reply.id, (m) => {
            let next = m;
            for (const part of parts) next = part.type === 'text' ? { ...next, content: next.content + part.text } : applyEvent(next, part.event);
            return next;
          });
          for (const part of parts) if (part.type === 'event' && part.event.type === 'done') resolveSources(part.event.sources);
        };
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          apply(parser.push(decoder.decode(value, { stream: true })));
        }
        apply([...parser.push(decoder.decode()), ...parser.end()]);
        update(reply.id, (m) => (m.status === 'streaming' ? { ...m, status: 'done' } : m));
      } catch (error) {
        if (abort.signal.aborted) update(reply.id, (m) => ({ ...m, status: 'stopped', steps: m.steps.map((s) => ({ ...s, done: true })) }));
        else update(reply.id, (m) => ({ ...m, status: 'error', problem: { kind: 'network' } }));
      } finally {
        if (controller.current === abort) controller.current = null;
      }
    },
    [chatConfigured, locale, resolveSources, searchInstead, update],
  );

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (streaming || waitSeconds > 0) return;
    void ask(input, messages);
  };

  const stop = () => controller.current?.abort();

  const retry = (id: number) => {
    const index = messages.findIndex((m) => m.id === id);
    const question = messages.slice(0, index).reverse().find((m) => m.role === 'user');
    if (!question || streaming) return;
    const before = messages.slice(0, messages.indexOf(question));
    void ask(question.content, before);
  };

  const copy = async (message: AssistantMessage) => {
    try {
      await navigator.clipboard.writeText(message.content);
      setCopied(message.id);
      setTimeout(() => setCopied((c) => (c === message.id ? undefined : c)), 2000);
    } catch {
      // Clipboard access refused: nothing useful to say beyond the button not confirming.
    }
  };

  const reset = () => {
    stop();
    setMessages([]);
    setTrimmed(false);
    textarea.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const suggestions = questions;

  return (
    <section
      id="chat-panel"
      className="chat-panel"
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      hidden={!open}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <div className="chat-header">
        <div>
          <h2 id={titleId}>{t('chatTitle', { name: firstName })}</h2>
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

      <div className="chat-log" ref={log} role="log" aria-live="polite" aria-busy={streaming} aria-label={t('chatTitle', { name: firstName })} tabIndex={0}>
        {chatConfigured === false ? (
          <p className="chat-note" data-testid="chat-search-mode">
            {t('chatSearchMode')}
          </p>
        ) : null}
        {trimmed ? <p className="chat-note">{t('chatTrimmed')}</p> : null}
        {messages.length === 0 && suggestions.length ? (
          <div className="chat-suggestions">
            <p id={`${titleId}-s`}>{t('chatSuggestionsLabel')}</p>
            <ul aria-labelledby={`${titleId}-s`}>
              {suggestions.map((s) => (
                <li key={s}>
                  <button type="button" onClick={() => void ask(s, messages)} disabled={waitSeconds > 0}>
                    {s}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {messages.map((m, i) =>
          m.role === 'user' ? (
            <div key={m.id} className="msg msg-user">
              <span className="sr-only">{t('chatYou')}: </span>
              <p>{m.content}</p>
            </div>
          ) : (
            <AssistantReply
              key={m.id}
              message={m}
              t={t}
              locale={locale}
              directory={directory}
              last={i === messages.length - 1}
              copied={copied === m.id}
              waitSeconds={waitSeconds}
              onRetry={() => retry(m.id)}
              onCopy={() => void copy(m)}
            />
          ),
        )}
      </div>

      <form className="chat-form" onSubmit={submit}>
        {waitSeconds > 0 ? (
          <p className="chat-note warn" role="status" data-testid="chat-wait">
            {t('chatRateLimited', { s: waitSeconds })}
          </p>
        ) : null}
        <label htmlFor="chat-input" className="sr-only">
          {t('chatInputLabel')}
        </label>
        <textarea
          id="chat-input"
          ref={textarea}
          value={input}
          maxLength={MAX_CONTENT}
          rows={2}
          placeholder={t('chatPlaceholder')}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={onKeyDown}
          aria-describedby={input.length > MAX_CONTENT * 0.8 ? 'chat-length' : undefined}
        />
        {input.length > MAX_CONTENT * 0.8 ? (
          <p id="chat-length" className="chat-length">
            {t('chatLength', { n: input.length })}
          </p>
        ) : null}
        <div className="chat-controls">
          {voiceConfigured ? (
            <VoiceButton
              locale={locale}
              t={t}
              disabled={streaming}
              onText={(text) => {
                setInput((current) => (current.trim() ? `${current.trim()} ${text}` : text));
                textarea.current?.focus();
              }}
            />
          ) : (
            <span />
          )}
          {streaming ? (
            <button type="button" className="button stop" onClick={stop}>
              <Icon name="stop" />
              {t('chatStop')}
            </button>
          ) : (
            <button type="submit" className="button" disabled={!input.trim() || waitSeconds > 0}>
              <Icon name="send" />
              {t('chatSend')}
            </button>
          )}
        </div>
      </form>
    </section>
  );
}

function applyEvent(message: AssistantMessage, event: ChatEvent): AssistantMessage {
  switch (event.type) {
    case 'tool':
      return { ...message, steps: [...message.steps, { name: event.name, input: event.input, done: false }] };
    case 'tool-result': {
      const steps = [...message.steps];
      const index = steps.findIndex((s) => s.name === event.name && !s.done);
      if (index !== -1) steps[index] = { ...steps[index]!, done: true, found: event.sources.length };
      return { ...message, steps };
    }
    case 'error':
      return { ...message, status: 'error', problem: { kind: 'unavailable', message: event.message } };
    case 'done':
      return { ...message, status: message.status === 'error' ? 'error' : 'done', sources: event.sources, steps: message.steps.map((s) => ({ ...s, done: true })) };
  }
}

function stepLabel(step: Step, t: Translate): string {
  const input = step.input ?? {};
  switch (step.name) {
    case 'search_subject':
      return t('chatToolSearch', { query: String(input.query ?? '') });
    case 'get_entry':
      return t('chatToolEntry', { slug: String(input.slug ?? '') });
    case 'list_experience':
      return t('chatToolList');
    case 'list_lenses':
      return t('chatToolLenses');
    case 'get_document':
      return t('chatToolDocument', { name: String(input.name ?? '') });
    case 'get_brief':
      return t('chatToolBrief');
    default:
      return t('chatToolOther', { name: step.name });
  }
}

function AssistantReply(props: {
  message: AssistantMessage;
  t: Translate;
  locale: Locale;
  directory: Map<string, SourceLink>;
  last: boolean;
  copied: boolean;
  waitSeconds: number;
  onRetry(): void;
  onCopy(): void;
}) {
  const { message: m, t, locale, directory } = props;
  const sources = m.sources.map((slug) => directory.get(slug) ?? fallbackSource(locale, slug));
  const problem = m.problem;
  return (
    <div className="msg msg-assistant" data-status={m.status}>
      <span className="sr-only">{t('chatAssistant')}: </span>
      {m.steps.length ? (
        <ol className="chat-steps">
          {m.steps.map((step, i) => (
            <li key={i} className={step.done ? 'done' : 'running'}>
              {step.done ? <Icon name="check" size={14} /> : <span className="spinner" aria-hidden="true" />}
              <span className="step-label">
                {stepLabel(step, t)}
                {step.done && step.found !== undefined ? <span className="step-count">{t('chatToolFound', { n: step.found })}</span> : null}
              </span>
            </li>
          ))}
        </ol>
      ) : null}
      {m.status === 'streaming' && !m.content && !m.steps.some((s) => !s.done) ? (
        <p className="thinking">
          <span className="dots" aria-hidden="true">
            <i />
            <i />
            <i />
          </span>
          {t('chatThinking')}
        </p>
      ) : null}
      {m.content ? <MarkdownText source={m.status === 'streaming' ? m.content : linkSlugs(m.content, directory)} className="answer" headingOffset={2} externalRel="nofollow noopener" /> : null}
      {m.passages ? (
        <div className="passages">
          <h3>{t('chatSearchHeading')}</h3>
          {m.passages.length ? (
            <ul>
              {m.passages.map((p, i) => (
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
      ) : null}
      {m.status === 'stopped' ? <p className="chat-status">{t('chatStopped')}</p> : null}
      {problem ? (
        <p className={`chat-problem ${problem.kind}`} data-testid={`chat-problem-${problem.kind}`}>
          <Icon name="warning" size={16} />
          <span>
            {problem.kind === 'rate'
              ? props.waitSeconds > 0
                ? t('chatRateLimited', { s: props.waitSeconds })
                : t('chatRateLimitedOver')
              : problem.kind === 'network'
                ? t('chatNetwork')
                : problem.kind === 'rejected'
                  ? t('chatRejected', { message: problem.message })
                  : t('chatUnavailable')}
          </span>
        </p>
      ) : null}
      {sources.length && m.status !== 'streaming' ? (
        <div className="chat-sources">
          <h3>{t('chatSources')}</h3>
          <ul>
            {sources.map((s) => (
              <li key={s.slug}>
                <a href={s.href}>{s.title}</a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {m.status !== 'streaming' ? (
        <div className="msg-actions">
          {m.content ? (
            <button type="button" className="chip" onClick={props.onCopy}>
              <Icon name={props.copied ? 'check' : 'copy'} size={14} />
              <span aria-live="polite">{props.copied ? t('chatCopied') : t('chatCopy')}</span>
            </button>
          ) : null}
          {props.last && (m.status === 'error' || m.status === 'stopped' || m.content) && !m.passages ? (
            <button type="button" className="chip" onClick={props.onRetry} disabled={props.waitSeconds > 0}>
              <Icon name="retry" size={14} />
              {t('chatRetry')}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
