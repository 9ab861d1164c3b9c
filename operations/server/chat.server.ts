// chat and transcribe: the site's chat widget, as operations. chat runs the agent and reports the answer's text and
// its tool steps as progress, for REST to stream (operations/adapters/streams.server.ts); transcribe sends a
// recorded question to the transcription model. Both need a model provider: `invoke` says so once the input is
// checked (a bad request hears what is wrong with it first), before the caller's budget is spent (`modelRefusal`).
import type { AnyOperation } from '../contract/define.ts';
import { AppError, clipped } from '../contract/errors.ts';
import { AUDIO_MAX_BYTES, STREAMED_TEXT_MAX, type chat, type ChatEvent, type transcribe } from '../contract/agent.ts';
import { localeFacts, localeOfSpokenLanguage } from '../contract/locales.ts';
import type { Agent, AgentRun } from './agent.server.ts';
import type { Handlers, Refuse } from './implement.server.ts';
import { providerFailure, type Models } from './models.server.ts';

/** What to set for a feature that needs a model, by the error an operation declares for its absence. */
const notConfigured = {
  chat_not_configured: 'Chat is not configured: set OPENAI_API_KEY, or OPENAI_BASE_URL for an OpenAI-compatible server.',
  transcription_not_configured: 'Voice input is not configured: set OPENAI_API_KEY, or OPENAI_BASE_URL for an OpenAI-compatible server.',
} as const;

/** The refusal of an operation that `needsModel` when no model is configured; undefined when it can run. */
export function modelRefusal(op: AnyOperation, models: Models | undefined): AppError | undefined {
  if (!op.needsModel || models) return undefined;
  return new AppError(op.needsModel, notConfigured[op.needsModel]);
}

const TOO_LARGE = `The recording is larger than ${AUDIO_MAX_BYTES / 1024 / 1024} MB; record a shorter question.`;

/** Decodes strict base64 (a `data:` URL prefix is allowed); anything else is a 400, more than 10 MB a 413. */
export function decodeAudio(value: string, refuse: Refuse<'bad_request' | 'payload_too_large'>): Buffer {
  const payload = value.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload) || payload.length % 4 === 1) {
    throw refuse('bad_request', 'audio is not valid base64.', { errors: [{ pointer: '/audio', message: 'audio must be base64-encoded' }] });
  }
  if (Math.floor((payload.length * 3) / 4) > AUDIO_MAX_BYTES + 3) throw refuse('payload_too_large', TOO_LARGE);
  const bytes = Buffer.from(payload, 'base64');
  if (!bytes.length) throw refuse('bad_request', 'audio is empty.', { errors: [{ pointer: '/audio', message: 'audio is empty' }] });
  if (bytes.length > AUDIO_MAX_BYTES) throw refuse('payload_too_large', TOO_LARGE);
  return bytes;
}

export interface ChatDeps {
  agent: Agent;
  models: Models | undefined;
}

export function chatHandlers({ agent, models }: ChatDeps): Handlers<readonly [typeof chat, typeof transcribe]> {
  return {
    async chat(input, ctx) {
      const report = (event: ChatEvent) => ctx.progress?.(event);
      let answer: AgentRun;
      try {
        answer = await agent.run(
          ctx,
          { messages: input.messages, locale: input.locale },
          {
            onTool: (name, toolInput) => report({ type: 'tool', name, input: toolInput }),
            onToolResult: (name, sources) => report({ type: 'tool-result', name, sources }),
            onText: (text) => report({ type: 'text', text }),
          },
        );
      } catch (error) {
        // A provider that drops the answer half-way is the provider's failure, said as such, not a bug of ours.
        if (error instanceof AppError || !(await import('ai')).AISDKError.isInstance(error)) throw error;
        throw ctx.refuse('unavailable', ...providerFailure(error));
      }
      return { answer: clipped(answer.text, STREAMED_TEXT_MAX), locale: input.locale, sources: answer.sources };
    },

    async transcribe(input, { refuse }) {
      if (!models) throw refuse('transcription_not_configured', notConfigured.transcription_not_configured);
      const audio = decodeAudio(input.audio, refuse);
      const { experimental_transcribe: transcribeAudio } = await import('ai'); // loaded on first use (see models.server.ts)
      let result: Awaited<ReturnType<typeof transcribeAudio>>;
      try {
        result = await transcribeAudio({
          model: models.transcription,
          audio,
          maxRetries: 1,
          ...(input.locale ? { providerOptions: { openai: { language: localeFacts[input.locale].speech.code } } } : {}),
        });
      } catch (error) {
        throw refuse('unavailable', ...providerFailure(error, 'Transcription failed'));
      }
      const locale = (result.language ? localeOfSpokenLanguage(result.language) : undefined) ?? input.locale;
      return { text: clipped(result.text.trim(), STREAMED_TEXT_MAX), ...(locale ? { locale } : {}) };
    },
  };
}
