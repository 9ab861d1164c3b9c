// The conversation as a hook: asks /api/chat and follows its stream into the messages (conversation.ts),
// stops and retries, counts down after a 429, and, when the service has no model, answers with search
// passages instead. Whether chat is configured comes from the root loader; a 503 says so too. The conversation is
// kept for this tab as it changes (saved-conversation.ts), so that the next page, after a full load, goes on from it.
import { useEffect, useReducer, useRef, useState } from 'react';
import { sitePath, type Locale } from '../i18n/locales.ts';
import { excerpt, markdownToText } from '../../operations/content/markdown.ts';
import { MAX_CONTENT, requestMessages } from './history.ts';
import { readChatStream, retryAfterSeconds } from './stream.ts';
import { keepChat, tabStorage } from './saved-conversation.ts';
import {
  conversationReducer,
  emptyConversation,
  isStreaming,
  refusal,
  retryOf,
  turnsOf,
  waitSeconds,
  type Conversation,
  type Message,
  type Passage,
} from './conversation.ts';

let nextId = 1;
/** Starts from `conversation`, numbering what is asked next after its messages (a kept one comes with its ids). */
function startFrom(conversation: Conversation): Conversation {
  for (const m of conversation.messages) nextId = Math.max(nextId, m.id + 1);
  return conversation;
}
/** A passage shown without a model is cut past this many characters, at a word (as on the search page): a table of capabilities is one long paragraph as text. */
const PASSAGE_MAX = 700;

export interface ChatOptions {
  locale: Locale;
  /** The site's own origin, to turn the absolute URLs the service gives into paths. */
  siteUrl: string;
  /** The service has a model; false answers by search from the start. */
  configured: boolean;
  /** The conversation kept from the page before, to go on from. */
  restored?: Conversation;
  /** The panel is open: kept with the conversation, so that the next page opens it again. */
  open: boolean;
}

export function useChat({ locale, siteUrl, configured, restored, open }: ChatOptions) {
  const [{ messages, trimmed }, dispatch] = useReducer(conversationReducer, restored ?? emptyConversation, startFrom);
  const [searchOnly, setSearchOnly] = useState(!configured);
  const [now, setNow] = useState(() => Date.now());
  const controller = useRef<AbortController | null>(null);

  const streaming = isStreaming(messages);
  const wait = waitSeconds(messages, now);

  useEffect(() => {
    if (!wait) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [wait]);

  // Kept at every change; an empty conversation (a new one) removes what was kept. A reply still streaming is kept
  // stopped where it got to, and is stopped here too when the page goes away: the next page never resumes it, and
  // this one, if the browser brings it back from its back/forward cache, shows it as it was kept.
  useEffect(() => keepChat(tabStorage(), { conversation: { messages, trimmed }, open }), [messages, trimmed, open]);
  useEffect(() => {
    const leave = () => controller.current?.abort();
    window.addEventListener('pagehide', leave);
    return () => window.removeEventListener('pagehide', leave);
  }, []);

  async function searchInstead(id: number, question: string) {
    try {
      // Asked in the page's locale, as the search page asks; a passage is Markdown, shown as its readable text.
      const res = await fetch(`/api/v1/search?q=${encodeURIComponent(question.slice(0, 500))}&limit=5&locale=${locale}`);
      if (!res.ok) throw new Error(String(res.status));
      const body = (await res.json()) as { results: Array<{ title: string; passage: string; url: string }> };
      const passages: Passage[] = body.results.map((r) => ({
        title: r.title,
        passage: excerpt(markdownToText(r.passage, { tables: 'pairs' }), PASSAGE_MAX),
        href: sitePath(r.url, siteUrl),
      }));
      dispatch({ type: 'passages', id, passages });
    } catch {
      dispatch({ type: 'fail', id, problem: { kind: 'network' } });
    }
  }

  async function ask(question: string, history: Message[]) {
    const text = question.trim().slice(0, MAX_CONTENT);
    const questionId = nextId++;
    const id = nextId++;
    dispatch({ type: 'ask', history, question: { id: questionId, role: 'user', content: text, locale }, replyId: id });
    if (searchOnly) return searchInstead(id, text);

    const abort = new AbortController();
    controller.current = abort;
    try {
      const res = await fetch('/api/chat', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ messages: requestMessages(turnsOf(history), text), locale, events: true }),
        signal: abort.signal,
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
        const problem = refusal(res.status, body, retryAfterSeconds(res.headers.get('Retry-After')), Date.now());
        if (problem === 'search') {
          setSearchOnly(true);
          return searchInstead(id, text);
        }
        setNow(Date.now());
        dispatch({ type: 'fail', id, problem });
        return;
      }
      await readChatStream(res.body!, (parts) => dispatch({ type: 'stream', id, parts }));
      dispatch({ type: 'end', id });
    } catch {
      dispatch(abort.signal.aborted ? { type: 'stop', id } : { type: 'fail', id, problem: { kind: 'network' } });
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  }

  /** Asks `question` after the conversation so far; false when there is nothing to ask or it must wait. */
  const send = (question: string): boolean => {
    if (!question.trim() || streaming || wait > 0) return false;
    void ask(question, messages);
    return true;
  };

  /** Asks the question before reply `id` again, in place of that reply. */
  const retry = (id: number) => {
    const again = retryOf(messages, id);
    if (!again || streaming || wait > 0) return;
    void ask(again.question, again.history);
  };

  const stop = () => controller.current?.abort();

  const reset = () => {
    stop();
    dispatch({ type: 'reset' });
  };

  return { messages, trimmed, streaming, waitSeconds: wait, searchOnly, send, retry, stop, reset };
}
