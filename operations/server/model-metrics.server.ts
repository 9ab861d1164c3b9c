// Model requests in /metrics: latency, the tokens the provider reports, and failures by kind, per feature. The
// language models are wrapped with AI SDK middleware, below the SDK's retries and tool loop, so each request the
// provider sees is one observation; transcription and embeddings are timed around their one call.
import type { LanguageModelMiddleware } from 'ai';
import { modelErrors, modelRequestDuration, modelTokens } from './metrics.server.ts';

/** What a model request was for: `chat` is the agent (chat and ask_subject), `ai_edit` the console's edits. */
export type ModelFeature = 'chat' | 'ai_edit' | 'translate' | 'questions' | 'transcribe' | 'embeddings';

type WrapStream = NonNullable<LanguageModelMiddleware['wrapStream']>;
type StreamResult = Awaited<ReturnType<Parameters<WrapStream>[0]['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;
type Usage = Extract<StreamPart, { type: 'finish' }>['usage'];

export interface Ending {
  error?: unknown;
  /** Tokens as the provider reported them (absent when it reports none). */
  tokens?: { input?: number; output?: number };
}

/**
 * Starts timing one model request; the function it returns ends it, once (later calls are ignored). A request
 * the caller gave up on (the visitor left) is `aborted`: timed, but not a model error.
 */
export function startModelRequest(feature: ModelFeature): (ending: Ending) => void {
  const started = performance.now();
  let ended = false;
  return (ending) => {
    if (ended) return;
    ended = true;
    const kind = 'error' in ending ? errorKind(ending.error) : undefined;
    const tokens = ending.tokens;
    const outcome = kind === undefined ? 'ok' : kind === 'aborted' ? 'aborted' : 'error';
    modelRequestDuration.observe({ feature, outcome }, (performance.now() - started) / 1000);
    if (outcome === 'error') modelErrors.inc({ feature, kind: kind! });
    if (tokens?.input) modelTokens.inc({ feature, direction: 'input' }, tokens.input);
    if (tokens?.output) modelTokens.inc({ feature, direction: 'output' }, tokens.output);
  };
}

const tokensOf = (usage: Usage | undefined) => ({ input: usage?.inputTokens.total, output: usage?.outputTokens.total });

/** Middleware for `wrapLanguageModel`: every generate and stream request of the model, observed as `feature`. */
export function measuredLanguageModel(feature: ModelFeature): LanguageModelMiddleware {
  return {
    specificationVersion: 'v3',
    async wrapGenerate({ doGenerate }) {
      const end = startModelRequest(feature);
      try {
        const result = await doGenerate();
        end({ tokens: tokensOf(result.usage) });
        return result;
      } catch (error) {
        end({ error });
        throw error;
      }
    },
    async wrapStream({ doStream }) {
      const end = startModelRequest(feature);
      let result: StreamResult;
      try {
        result = await doStream();
      } catch (error) {
        end({ error });
        throw error;
      }
      return { ...result, stream: observedStream(result.stream, end) };
    },
  };
}

/**
 * The stream as it is, ended when it is: at its last part (with the usage its `finish` part reported, or the
 * error an `error` part carried), when reading it fails (a connection dropped mid-answer), or when the reader
 * cancels it.
 */
function observedStream(stream: ReadableStream<StreamPart>, end: (ending: Ending) => void): ReadableStream<StreamPart> {
  const reader = stream.getReader();
  let usage: Usage | undefined;
  let failure: { error: unknown } | undefined;
  return new ReadableStream<StreamPart>({
    async pull(controller) {
      let next: ReadableStreamReadResult<StreamPart>;
      try {
        next = await reader.read();
      } catch (error) {
        end({ error });
        return controller.error(error);
      }
      if (next.done) {
        end(failure ?? { tokens: tokensOf(usage) });
        return controller.close();
      }
      const part = next.value;
      if (part.type === 'finish') usage = part.usage;
      else if (part.type === 'error') failure ??= { error: part.error };
      controller.enqueue(part);
    },
    cancel(reason) {
      end({ error: new DOMException(String(reason ?? 'cancelled'), 'AbortError') });
      return reader.cancel(reason);
    },
  });
}

/**
 * A transcription model whose requests are observed as `transcribe` (the SDK has no middleware for these):
 * its own `doGenerate`, timed.
 */
export function measuredTranscription<M extends { doGenerate(...args: never[]): PromiseLike<unknown> }>(model: M): M {
  const generate = model.doGenerate.bind(model) as (...args: unknown[]) => PromiseLike<unknown>;
  model.doGenerate = async (...args: unknown[]) => {
    const end = startModelRequest('transcribe');
    try {
      const result = await generate(...args);
      end({});
      return result;
    } catch (error) {
      end({ error });
      throw error;
    }
  };
  return model;
}

/** Why a model request failed, as one of a few kinds an operator acts on differently. */
export function errorKind(error: unknown): string {
  const e = (error ?? {}) as { name?: string; statusCode?: number; cause?: unknown };
  const name = e.name ?? '';
  if (name === 'AbortError' || name === 'ResponseAborted') return 'aborted';
  if (name === 'TimeoutError') return 'timeout';
  const status = e.statusCode;
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'auth';
  if (status !== undefined && status >= 500) return 'server';
  if (status !== undefined && status >= 400) return 'client';
  // No answer at all (refused, reset, a dropped stream): the SDK's call error without a status, or fetch's own.
  if (name === 'AI_APICallError' || name === 'TypeError') return 'network';
  if (/JSONParse|TypeValidation|InvalidResponse|NoContentGenerated|EmptyResponseBody/.test(name)) return 'invalid_response';
  return 'other';
}
