// The conversation kept for this tab in sessionStorage, so that a full page load (the language switcher, a
// source's link, a reload) finds it again, and the panel open if it was. A reply still streaming is kept as far
// as it came, stopped: the new page never resumes it. What is read back is checked field by field (by hand, to
// keep zod out of the page's bundle); anything else, an older format or a value cut short, is dropped and removed.
import { MAX_CONTENT, MAX_MESSAGES } from './history.ts';
import { settled, type AssistantMessage, type Conversation, type Message, type Passage, type Problem, type Step } from './conversation.ts';
import type { ChatSource } from './stream.ts';
import { isLocale } from '../i18n/locales.ts';

export const SAVED_KEY = 'vitae:chat';
/** Bumped when the saved shape changes: a value of another version is dropped, not read. */
const VERSION = 1;

export interface SavedChat {
  conversation: Conversation;
  /** The panel was open when the page went away. */
  open: boolean;
}

/** The value to keep: undefined when there is nothing to keep (no messages: a new or cleared conversation). */
export function saveChat({ conversation, open }: SavedChat): string | undefined {
  if (!conversation.messages.length) return undefined;
  return JSON.stringify({ v: VERSION, open, trimmed: conversation.trimmed, messages: conversation.messages.map(settled) });
}

/** The kept conversation, or undefined when the value is absent or not one this version wrote whole. */
export function parseSavedChat(raw: string | null): SavedChat | undefined {
  if (!raw) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isObject(value) || value.v !== VERSION || typeof value.open !== 'boolean' || typeof value.trimmed !== 'boolean') return undefined;
  if (!Array.isArray(value.messages) || !value.messages.length || value.messages.length > MAX_MESSAGES) return undefined;
  const messages: Message[] = [];
  for (const item of value.messages) {
    const message = messageOf(item);
    if (!message || messages.some((m) => m.id === message.id)) return undefined;
    messages.push(message);
  }
  return { conversation: { messages, trimmed: value.trimmed }, open: value.open };
}

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Reads the kept conversation from `store`; a value that does not parse is removed, so it is not read again. */
export function loadChat(store: Store | undefined): SavedChat | undefined {
  try {
    const raw = store?.getItem(SAVED_KEY) ?? null;
    const saved = parseSavedChat(raw);
    if (raw !== null && !saved) store?.removeItem(SAVED_KEY);
    return saved;
  } catch {
    return undefined; // storage refused (disabled, or a sandboxed frame): start empty
  }
}

/** Keeps `chat` in `store`, or removes what was kept when there is nothing to keep or it does not fit. */
export function keepChat(store: Store | undefined, chat: SavedChat): void {
  const value = saveChat(chat);
  try {
    if (value === undefined) store?.removeItem(SAVED_KEY);
    else store?.setItem(SAVED_KEY, value);
  } catch {
    // Over the quota: better no conversation on the next page than an older one.
    try {
      store?.removeItem(SAVED_KEY);
    } catch {
      // storage refused altogether: the conversation lasts as long as this page
    }
  }
}

/** The tab's sessionStorage, if the browser lets this page use it. */
export function tabStorage(): Store | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    return undefined;
  }
}

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const statuses: ReadonlyArray<AssistantMessage['status']> = ['streaming', 'done', 'stopped', 'error'];
/** Links the widget wrote: paths on this site, or absolute http(s) URLs. */
const isHref = (v: unknown): v is string => isString(v) && /^(\/(?!\/)|https?:\/\/)/i.test(v);

function messageOf(value: unknown): Message | undefined {
  if (!isObject(value) || !Number.isSafeInteger(value.id) || (value.id as number) < 1 || !isString(value.content)) return undefined;
  const id = value.id as number;
  if (value.locale !== undefined && !isLocale(value.locale)) return undefined;
  const locale = value.locale === undefined ? {} : { locale: value.locale };
  if (value.role === 'user') return value.content.length <= MAX_CONTENT ? { id, role: 'user', content: value.content, ...locale } : undefined;
  if (value.role !== 'assistant') return undefined;
  const status = statuses.find((s) => s === value.status);
  const steps = listOf(value.steps, stepOf);
  const sources = listOf(value.sources, sourceOf);
  const problem = value.problem === undefined ? undefined : problemOf(value.problem);
  const passages = value.passages === undefined ? undefined : listOf(value.passages, passageOf);
  if (!status || !steps || !sources || (value.problem !== undefined && !problem) || (value.passages !== undefined && !passages)) return undefined;
  return settled({
    id,
    role: 'assistant',
    content: value.content,
    status,
    steps,
    sources,
    ...(problem ? { problem } : {}),
    ...(passages ? { passages } : {}),
    ...locale,
  });
}

/** Every item read by `read`, or undefined when it is not a list or any item is not one. */
function listOf<T>(value: unknown, read: (item: unknown) => T | undefined): T[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items = value.map(read);
  return items.every((item): item is T => item !== undefined) ? items : undefined;
}

function stepOf(value: unknown): Step | undefined {
  if (!isObject(value) || !isString(value.name) || typeof value.done !== 'boolean') return undefined;
  if (value.input !== undefined && !isObject(value.input)) return undefined;
  if (value.found !== undefined && !(Number.isSafeInteger(value.found) && (value.found as number) >= 0)) return undefined;
  return {
    name: value.name,
    done: value.done,
    ...(value.input !== undefined ? { input: value.input } : {}),
    ...(value.found !== undefined ? { found: value.found as number } : {}),
  };
}

function sourceOf(value: unknown): ChatSource | undefined {
  if (!isObject(value) || !isString(value.slug) || !value.slug || !isString(value.title)) return undefined;
  if (value.url !== undefined && !isHref(value.url)) return undefined;
  return { slug: value.slug, title: value.title, ...(value.url !== undefined ? { url: value.url } : {}) };
}

function passageOf(value: unknown): Passage | undefined {
  if (!isObject(value) || !isString(value.title) || !isString(value.passage) || !isHref(value.href)) return undefined;
  return { title: value.title, passage: value.passage, href: value.href };
}

function problemOf(value: unknown): Problem | undefined {
  if (!isObject(value)) return undefined;
  switch (value.kind) {
    case 'rate':
      return typeof value.until === 'number' && Number.isFinite(value.until) ? { kind: 'rate', until: value.until } : undefined;
    case 'unavailable':
      if (value.message !== undefined && !isString(value.message)) return undefined;
      return { kind: 'unavailable', ...(value.message !== undefined ? { message: value.message } : {}) };
    case 'network':
      return { kind: 'network' };
    case 'rejected':
      return isString(value.message) ? { kind: 'rejected', message: value.message } : undefined;
    default:
      return undefined;
  }
}
