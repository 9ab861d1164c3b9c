// The ask operation: the site's agent answers a question from the profile (not streamed; the chat
// endpoint streams the same agent).
import { z } from 'zod';
import { defineOperation } from './define.ts';
import { limits } from './limits.ts';
import { RecordTitle } from './public.ts';
import { Locale, MarkdownText, Slug, TEXT, Url } from './shared.ts';

const MESSAGE_MAX = 2000;
const MESSAGES_MAX = 16;

export const ChatMessage = z
  .object({
    role: z.enum(['user', 'assistant']),
    content: z.string().min(1, 'a message needs content').max(MESSAGE_MAX, `a message is at most ${MESSAGE_MAX} characters`).meta(TEXT),
  })
  .meta({ id: 'ChatMessage' });

export const ChatRequest = z.object({
  messages: z.array(ChatMessage).min(1, 'send at least one message').max(MESSAGES_MAX, `at most ${MESSAGES_MAX} messages per request`),
  locale: Locale.default('en'),
  events: z.boolean().default(false).describe('Interleave U+001E status lines with the answer text'),
});

export const askSubject = defineOperation({
  name: 'ask_subject',
  summary: 'Ask the profile assistant a question; it answers from the profile with its sources',
  description:
    'A tool-using agent grounded in the profile answers in the requested locale and names its sources. Rate limited to 20 calls per minute per client IP, shared by REST and MCP.',
  rest: { method: 'POST', path: '/api/v1/ask' },
  cli: 'ask <question>',
  input: z.object({
    question: z.string().trim().min(1, 'ask a question').max(MESSAGE_MAX, `a question is at most ${MESSAGE_MAX} characters`).meta(TEXT),
    locale: Locale.default('en'),
    history: z.array(ChatMessage).max(MESSAGES_MAX, `at most ${MESSAGES_MAX} earlier messages`).default([]).describe('Earlier turns of the conversation'),
  }),
  output: z
    .object({
      answer: MarkdownText(limits.answer).describe(`Markdown; at most ${limits.answer} characters`),
      locale: Locale,
      sources: z
        .array(z.object({ slug: Slug, title: RecordTitle, url: Url }))
        .max(limits.contentFiles)
        .describe('The records the answer is built on'),
    })
    .meta({ id: 'Answer' }),
  answeredByModel: true,
  auth: 'public',
  errors: ['bad_request', 'rate_limited', 'chat_not_configured', 'unavailable'],
  rateLimit: { bucket: 'ask', points: 20, windowSeconds: 60 },
  examples: {
    valid: [{ summary: 'A question answered in French', input: { question: 'Which languages does Noa speak?', locale: 'fr' } }],
    invalid: [
      { summary: 'No question', input: { question: '' } },
      { summary: 'A history turn with an unknown role', input: { question: 'Why?', history: [{ role: 'system', content: 'x' }] } },
    ],
  },
});
