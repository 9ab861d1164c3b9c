// What the chat keeps and sends: at most 16 messages (the /api/chat limit), the oldest dropped first,
// always starting with a question, each at most 2000 characters.

export const MAX_MESSAGES = 16;
export const MAX_CONTENT = 2000;

export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

/** The request's `messages`: earlier turns with content, then the new question, ≤ 16 and starting with a user turn. */
export function requestMessages(history: Turn[], question: string): Turn[] {
  const turns = [...history.filter((t) => t.content.trim()), { role: 'user' as const, content: question }].map((t) => ({
    role: t.role,
    content: t.content.slice(0, MAX_CONTENT),
  }));
  let recent = turns.slice(-MAX_MESSAGES);
  while (recent.length > 1 && recent[0]!.role !== 'user') recent = recent.slice(1);
  return recent;
}

/** Keeps the last `max` items of the conversation on screen; says whether any were dropped. */
export function keepRecent<T>(messages: T[], max = MAX_MESSAGES): { messages: T[]; trimmed: boolean } {
  return messages.length > max ? { messages: messages.slice(-max), trimmed: true } : { messages, trimmed: false };
}
