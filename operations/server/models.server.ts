// The model provider: @ai-sdk/openai through Chat Completions, so any OpenAI-compatible server works
// (OpenAI, Ollama, llama.cpp, vLLM) via OPENAI_BASE_URL. Absent when nothing is configured, and then the
// provider's code is never loaded (the model SDKs are imported on first use: about 40 MB a process without chat does not need).
import type { EmbeddingModel, LanguageModel, TranscriptionModel } from 'ai';
import type { Config } from './config.server.ts';
import type { AppErrorOptions } from '../contract/errors.ts';
import type { EmbedTexts } from '../corpus/embeddings.ts';
import { questionsFromOutput, questionsPrompt, QuestionsOutput, type GenerateQuestions } from '../corpus/passage-questions.ts';
import { measuredLanguageModel, measuredTranscription, startModelRequest, type ModelFeature } from './model-metrics.server.ts';

export interface Models {
  /** The agent's (chat and ask_subject). */
  chat: LanguageModel;
  /** The console's AI edits: the chat model, counted apart in /metrics. */
  edit: LanguageModel;
  translate: LanguageModel;
  transcription: TranscriptionModel;
  /** Passages → the questions each answers (search by questions, SEARCH_QUESTIONS), with the translation model. */
  generateQuestions: GenerateQuestions;
  /** The model that writes the passages' questions (its cache is kept apart from another model's). */
  questionsModel: string;
  /** With EMBEDDING_MODEL: texts → vectors through the provider's embeddings endpoint (hybrid search). */
  embedTexts?: EmbedTexts;
  embeddingModel?: string;
}

export async function createModels(config: Config): Promise<Models | undefined> {
  if (!config.chatConfigured) return undefined;
  const { createOpenAI } = await import('@ai-sdk/openai');
  const { wrapLanguageModel } = await import('ai');
  // Local servers need no key, but the client insists on one: send a placeholder, never a real secret.
  const provider = createOpenAI({ apiKey: config.OPENAI_API_KEY ?? 'not-needed', baseURL: config.OPENAI_BASE_URL });
  // Each feature's requests are timed and counted apart (/metrics), by middleware around the provider's model.
  const measured = (model: string, feature: ModelFeature) => wrapLanguageModel({ model: provider.chat(model), middleware: measuredLanguageModel(feature) });
  return {
    chat: measured(config.CHAT_MODEL, 'chat'),
    edit: measured(config.CHAT_MODEL, 'ai_edit'),
    translate: measured(config.TRANSLATE_MODEL, 'translate'),
    transcription: measuredTranscription(provider.transcription(config.TRANSCRIBE_MODEL)),
    generateQuestions: questioner(measured(config.TRANSLATE_MODEL, 'questions')),
    questionsModel: config.TRANSLATE_MODEL,
    ...(config.EMBEDDING_MODEL ? { embedTexts: embedder(provider.embedding(config.EMBEDDING_MODEL)), embeddingModel: config.EMBEDDING_MODEL } : {}),
  };
}

/** A batch of passages → the questions each answers: structured output checked by zod, like a translation. */
function questioner(model: LanguageModel): GenerateQuestions {
  return async (passages, signal) => {
    const { generateText, Output } = await import('ai');
    const { system, prompt } = questionsPrompt(passages);
    const { output } = await generateText({ model, output: Output.object({ schema: QuestionsOutput }), maxRetries: 1, abortSignal: signal, system, prompt });
    return questionsFromOutput(output, passages.length);
  };
}

function embedder(model: EmbeddingModel): EmbedTexts {
  return async (texts, signal) => {
    const { embedMany } = await import('ai');
    const end = startModelRequest('embeddings');
    try {
      const { embeddings, usage } = await embedMany({ model, values: texts, maxRetries: 2, abortSignal: signal });
      end({ tokens: { input: usage.tokens } });
      return embeddings;
    } catch (error) {
      end({ error });
      throw error;
    }
  };
}

/**
 * The message and options of the `unavailable` a provider failure is (`throw refuse('unavailable', ...providerFailure(e))`):
 * its one line, and the provider's own Retry-After passed on when it sent one (a rate limit of the provider's, an
 * outage), so a client waits as long as the provider asked rather than retrying at once.
 */
export function providerFailure(error: unknown, what = 'The model provider failed'): [string, AppErrorOptions] {
  const seconds = providerRetryAfter(error);
  return [`${what}: ${describeProviderError(error)}`, { cause: error, ...(seconds ? { headers: { 'Retry-After': String(seconds) } } : {}) }];
}

/** Most a provider's Retry-After is passed on for: a longer one says "later", which an hour does too. */
const RETRY_AFTER_MAX = 3600;

type ProviderError = { message?: string; statusCode?: number; responseHeaders?: Record<string, string>; lastError?: unknown; cause?: unknown };

/** The error and those it wraps, outermost first: the SDK's RetryError holds its last attempt's, which holds the response. */
function* wrapped(error: unknown): Generator<ProviderError> {
  let e = error as ProviderError | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++, e = (e.lastError ?? e.cause) as ProviderError | undefined) yield e;
}

/** The provider's Retry-After in whole seconds (retry-after-ms or retry-after, seconds or a date), on the error or what it wraps. */
export function providerRetryAfter(error: unknown): number | undefined {
  for (const { responseHeaders: headers } of wrapped(error)) {
    if (!headers) continue;
    const ms = headers['retry-after-ms'] ? Number(headers['retry-after-ms']) : headers['retry-after'] ? secondsOrDate(headers['retry-after']) : NaN;
    return Number.isFinite(ms) && ms > 0 ? Math.min(RETRY_AFTER_MAX, Math.ceil(ms / 1000)) : undefined;
  }
  return undefined;
}

const secondsOrDate = (value: string) => (/^\s*\d+(?:\.\d+)?\s*$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now());

/** A provider failure in one line a person can read (the SDK's messages can be long and multi-line). */
export function describeProviderError(error: unknown): string {
  const e = error as ProviderError | undefined;
  const statusCode = [...wrapped(error)].find((w) => w.statusCode)?.statusCode;
  const status = statusCode ? ` (HTTP ${statusCode})` : '';
  return `${(e?.message ?? String(error)).split('\n')[0]!.slice(0, 200)}${status}`;
}
