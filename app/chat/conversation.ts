// The conversation as data: what is on screen, and how each thing that happens (a question, a piece of
// the stream, the end, a stop, a failure, search passages) changes it. Pure, so the rules are tested
// without a browser; use-chat.ts does the fetching and the clock.
import type { ChatEvent, ChatSource, StreamPart } from './stream.ts';
import { keepRecent, type Turn } from './history.ts';
import type { Locale } from '../i18n/locales.ts';

export interface Step {
  name: string;
  input?: Record<string, unknown>;
  done: boolean;
  found?: number;
}

export interface Passage {
  title: string;
  passage: string;
  href: string;
}

export type Problem = { kind: 'rate'; until: number } | { kind: 'unavailable'; message?: string } | { kind: 'network' } | { kind: 'rejected'; message: string };

export interface UserMessage {
  id: number;
  role: 'user';
  content: string;
  /** The page's language when it was asked: after a language switch, the older messages keep their `lang`. */
  locale?: Locale;
}

export interface AssistantMessage {
  id: number;
  role: 'assistant';
  content: string;
  status: 'streaming' | 'done' | 'stopped' | 'error';
  steps: Step[];
  sources: ChatSource[];
  problem?: Problem;
  /** Search passages shown instead of an answer when no model is configured. */
  passages?: Passage[];
  /** The page's language when it was asked (the language the answer was asked for). */
  locale?: Locale;
}

export type Message = UserMessage | AssistantMessage;

export interface Conversation {
  messages: Message[];
  /** Older messages were dropped to stay within the limit. */
  trimmed: boolean;
}

export const emptyConversation: Conversation = { messages: [], trimmed: false };

export type ConversationAction =
  /** A question and its (still empty) reply after `history`, the messages it follows. */
  | { type: 'ask'; history: Message[]; question: UserMessage; replyId: number }
  | { type: 'stream'; id: number; parts: StreamPart[] }
  /** The stream ended. */
  | { type: 'end'; id: number }
  /** The visitor stopped the answer. */
  | { type: 'stop'; id: number }
  | { type: 'fail'; id: number; problem: Problem }
  | { type: 'passages'; id: number; passages: Passage[] }
  | { type: 'reset' };

export function conversationReducer(state: Conversation, action: ConversationAction): Conversation {
  switch (action.type) {
    case 'ask': {
      const reply: AssistantMessage = {
        id: action.replyId,
        role: 'assistant',
        content: '',
        status: 'streaming',
        steps: [],
        sources: [],
        ...(action.question.locale ? { locale: action.question.locale } : {}),
      };
      const kept = keepRecent([...action.history, action.question, reply]);
      return { messages: kept.messages, trimmed: state.trimmed || kept.trimmed };
    }
    case 'stream':
      return update(state, action.id, (m) => action.parts.reduce(applyPart, m));
    case 'end':
      return update(state, action.id, (m) => (m.status === 'streaming' ? { ...m, status: 'done' } : m));
    case 'stop':
      return update(state, action.id, stopped);
    case 'fail':
      return update(state, action.id, (m) => ({ ...m, status: 'error', problem: action.problem }));
    case 'passages':
      return update(state, action.id, (m) => ({ ...m, status: 'done', passages: action.passages }));
    case 'reset':
      return emptyConversation;
  }
}

/** Changes one reply; a reply no longer on screen (trimmed, or the conversation was reset) is left alone. */
function update(state: Conversation, id: number, change: (m: AssistantMessage) => AssistantMessage): Conversation {
  if (!state.messages.some((m) => m.id === id && m.role === 'assistant')) return state;
  return { ...state, messages: state.messages.map((m) => (m.id === id && m.role === 'assistant' ? change(m) : m)) };
}

const finished = (step: Step): Step => ({ ...step, done: true });
const stopped = (m: AssistantMessage): AssistantMessage => ({ ...m, status: 'stopped', steps: m.steps.map(finished) });

/** A message as it stands once nothing more will come: a reply still streaming is stopped where it got to. */
export const settled = (m: Message): Message => (m.role === 'assistant' && m.status === 'streaming' ? stopped(m) : m);

function applyPart(message: AssistantMessage, part: StreamPart): AssistantMessage {
  return part.type === 'text' ? { ...message, content: message.content + part.text } : applyEvent(message, part.event);
}

export function applyEvent(message: AssistantMessage, event: ChatEvent): AssistantMessage {
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
      return { ...message, status: message.status === 'error' ? 'error' : 'done', sources: event.sources, steps: message.steps.map(finished) };
  }
}

export const isStreaming = (messages: readonly Message[]) => messages.some((m) => m.role === 'assistant' && m.status === 'streaming');

/** The earlier turns worth sending to the model: questions and real answers, not failures or search passages. */
export function turnsOf(history: readonly Message[]): Turn[] {
  return history.filter((m) => m.role === 'user' || (m.status !== 'error' && !m.passages)).map((m) => ({ role: m.role, content: m.content }));
}

/** What retrying the reply `id` asks again: the question before it, after the messages before that question. */
export function retryOf(messages: readonly Message[], id: number): { question: string; history: Message[] } | undefined {
  const index = messages.findIndex((m) => m.id === id);
  if (index === -1) return undefined;
  const question = messages.slice(0, index).findLast((m) => m.role === 'user');
  if (!question) return undefined;
  return { question: question.content, history: messages.slice(0, messages.indexOf(question)) };
}

/** Whole seconds until the latest 429 allows asking again (0 when there is none, or it is over). */
export function waitSeconds(messages: readonly Message[], now: number): number {
  const latest = messages.findLast((m): m is AssistantMessage => m.role === 'assistant' && m.problem?.kind === 'rate');
  const until = latest?.problem?.kind === 'rate' ? latest.problem.until : undefined;
  return until === undefined ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}

/**
 * What a refused /api/chat request means: the service has no model (answer by search instead), or a
 * problem to show: a 429 with its wait, a question the service rejected, or the service unavailable.
 */
export function refusal(status: number, body: { code?: string; message?: string }, retryAfter: number, now: number): 'search' | Problem {
  if (status === 503 && body.code === 'chat_not_configured') return 'search';
  if (status === 429) return { kind: 'rate', until: now + retryAfter * 1000 };
  if (status === 400) return { kind: 'rejected', message: body.message ?? '' };
  return { kind: 'unavailable' };
}
