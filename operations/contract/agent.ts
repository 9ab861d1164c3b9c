// The site's agent as operations: ask_subject answers a question in one piece; chat streams the same agent to the
// site's widget (answer text with status lines: `stream: 'text-events'` in define.ts); transcribe turns a recorded
// question into text (README "Ask it"). The last two are the widget's own: REST only, neither MCP tools nor CLI commands.
import { z } from 'zod';
import { defineOperation } from './define.ts';
import { limits } from './limits.ts';
import { RecordTitle } from './public.ts';
import { Locale, MarkdownText, PlainText, Slug, TEXT, Url } from './shared.ts';

const MESSAGE_MAX = 2000;
const MESSAGES_MAX = 16;
/** The longest recording to transcribe, decoded. */
export const AUDIO_MAX_BYTES = 10 * 1024 * 1024;
/** The largest chat request: sixteen messages of 2,000 characters, in JSON, with plenty of room. */
const CHAT_BODY_MAX = 256 * 1024;
/** The largest transcription request: the recording as base64 (4/3 of it), with room for the JSON around it. */
const TRANSCRIBE_BODY_MAX = Math.ceil(AUDIO_MAX_BYTES * 1.4) + 64 * 1024;
/** The longest streamed answer or transcript kept whole in an output (far beyond what a model writes in a few steps). */
export const STREAMED_TEXT_MAX = 100_000;

export const ChatMessage = z
  .object({
    role: z.enum(['user', 'assistant']),
    content: z.string().min(1, 'a message needs content').max(MESSAGE_MAX, `a message is at most ${MESSAGE_MAX} characters`).meta(TEXT),
  })
  .meta({ id: 'ChatMessage' });

export const ChatRequest = z.object({
  messages: z
    .array(ChatMessage)
    .min(1, 'send at least one message')
    .max(MESSAGES_MAX, `at most ${MESSAGES_MAX} messages per request`)
    // The agent answers the last message: one of its own would leave it nothing to answer.
    .superRefine((messages, ctx) => {
      const last = messages.length - 1;
      if (messages[last]?.role === 'assistant')
        ctx.addIssue({ code: 'custom', path: [last, 'role'], message: 'must be "user": the last message is the visitor’s question' });
    })
    .describe('The conversation so far, oldest first, ending with the visitor’s question'),
  locale: Locale.default('en'),
  events: z.boolean().default(false).describe('Interleave U+001E status lines with the answer text'),
});

/** A record an answer is built on, with its title and page, so a client needs no further request to show it. */
const AnswerSources = z
  .array(z.object({ slug: Slug, title: RecordTitle, url: Url }))
  .max(limits.contentFiles)
  .describe('The records the answer is built on');

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
      sources: AnswerSources,
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

/** The name of a tool of the agent: an operation of this API. */
const ToolName = z
  .string()
  .max(64)
  .regex(/^[a-z]+(_[a-z]+)*$/, 'a tool is named like an operation, e.g. search_subject');

/**
 * What the chat reports as it answers: the answer's text as the model writes it, and each tool step. The stream
 * sends the text as it is; the steps become status lines when the request asks for `events`.
 */
export const ChatEvent = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('text'), text: MarkdownText(STREAMED_TEXT_MAX).describe('The next piece of the answer') }),
    z.object({
      type: z.literal('tool'),
      name: ToolName.describe('The tool the agent calls'),
      input: z.unknown().describe('The arguments it calls the tool with'),
    }),
    z.object({
      type: z.literal('tool-result'),
      name: ToolName,
      sources: z.array(Slug).max(limits.contentFiles).describe('The records the tool returned that an answer may cite'),
    }),
  ])
  .meta({ id: 'ChatEvent' });
export type ChatEvent = z.infer<typeof ChatEvent>;

export const chat = defineOperation({
  name: 'chat',
  summary: 'Chat with the profile assistant: its answer streamed as it is written, with its tool steps and sources',
  description:
    'The site’s chat: the agent of ask_subject, streamed as `text/plain`. With `"events": true`, status lines interleave with the answer ' +
    '(U+001E, one JSON object, a line break): `{"type":"tool",…}` and `{"type":"tool-result",…}` as the agent looks things up, ' +
    '`{"type":"error","message":…}` when the answer fails once begun, and last `{"type":"done","sources":[…]}`. ' +
    'Rate limited to 10 requests per minute per client IP. Not an MCP tool: hosts ask with ask_subject.',
  rest: { method: 'POST', path: '/api/chat', stream: 'text-events', maxBody: CHAT_BODY_MAX },
  surfaces: ['rest'],
  input: ChatRequest,
  output: z
    .object({
      answer: MarkdownText(STREAMED_TEXT_MAX).describe('The whole answer (Markdown), as it was streamed'),
      locale: Locale,
      sources: AnswerSources,
    })
    .meta({ id: 'ChatAnswer' }),
  streams: ChatEvent,
  answeredByModel: true,
  needsModel: 'chat_not_configured',
  auth: 'public',
  errors: ['bad_request', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'chat_not_configured', 'unavailable'],
  rateLimit: { bucket: 'chat', points: 10, windowSeconds: 60 },
  examples: {
    valid: [{ summary: 'A question, with status lines', input: { messages: [{ role: 'user', content: 'What did Noa build for hotels?' }], events: true } }],
    invalid: [
      { summary: 'No messages', input: { messages: [] } },
      {
        summary: 'The last message is the assistant’s',
        input: {
          messages: [
            { role: 'user', content: 'Hello' },
            { role: 'assistant', content: 'Hi' },
          ],
        },
      },
    ],
  },
});

export const TranscribeRequest = z.object({
  audio: z
    .string()
    .min(1, 'send the recording as base64 in "audio"')
    // Bounded by the body limit: a recording just over 10 MB is still read, to be refused as too large (413).
    .max(TRANSCRIBE_BODY_MAX)
    .regex(/^(data:[\w/.+-]*(;[\w.+=-]*)*;base64,)?[A-Za-z0-9+/\s]*(=\s*)*$/, 'audio must be base64-encoded')
    .describe('The recording, base64-encoded (a `data:` URL is accepted); at most 10 MB'),
  mimeType: z
    .string()
    .max(100)
    .regex(/^audio\/[\w.+-]+(;.*)?$/, 'mimeType must be an audio type such as audio/webm')
    .default('audio/webm')
    .describe('The recording’s media type'),
  locale: Locale.optional().describe('The language spoken, when known; otherwise it is detected'),
});

export const transcribe = defineOperation({
  name: 'transcribe',
  summary: 'Transcribe a recorded question into text, for the visitor to review before asking',
  description:
    'Voice input for the site’s chat: the recording (base64, at most 10 MB) becomes text, with the locale spoken when it is one of the site’s. ' +
    'Rate limited to 10 requests per minute per client IP. Not an MCP tool.',
  rest: { method: 'POST', path: '/api/transcribe', maxBody: TRANSCRIBE_BODY_MAX },
  surfaces: ['rest'],
  input: TranscribeRequest,
  output: z
    .object({
      text: PlainText(STREAMED_TEXT_MAX).describe('What was said'),
      locale: Locale.optional().describe('The locale spoken, when it is one of the site’s (else the one asked for)'),
    })
    .meta({ id: 'Transcript' }),
  answeredByModel: true,
  needsModel: 'transcription_not_configured',
  auth: 'public',
  errors: ['bad_request', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'transcription_not_configured', 'unavailable'],
  rateLimit: { bucket: 'transcribe', points: 10, windowSeconds: 60 },
  examples: {
    invalid: [
      { summary: 'No recording', input: { audio: '' } },
      { summary: 'Not an audio type', input: { audio: 'AAAA', mimeType: 'video/mp4' } },
    ],
  },
});
