// POST /api/chat (the agent, streamed as plain text with optional U+001E status lines) and
// POST /api/transcribe (voice input). Both check the body before any model call.
import { z } from 'zod';
import { AppError } from '../contract/errors.ts';
import { ChatRequest } from '../contract/agent.ts';
import { parseInput } from '../contract/issues.ts';
import { localeFacts, localeOfSpokenLanguage } from '../contract/locales.ts';
import { Locale } from '../contract/shared.ts';
import type { Agent } from '../server/agent.server.ts';
import { anonymous } from '../server/implement.server.ts';
import { describeProviderError, type Models } from '../server/models.server.ts';
import { chatLimit, transcribeLimit, type RateLimits } from '../server/rate-limit.server.ts';
import { readJsonBody, requireJsonType, sendJson, type EdgeRequest, type Endpoint } from './edge.server.ts';

const RS = '\u001e';
const MAX_AUDIO_BYTES = 10 * 1024 * 1024;

export const TranscribeRequest = z.object({
  audio: z.string().min(1, 'send the recording as base64 in "audio"'),
  mimeType: z
    .string()
    .regex(/^audio\/[\w.+-]+(;.*)?$/, 'mimeType must be an audio type such as audio/webm')
    .default('audio/webm'),
  locale: Locale.optional(),
});

/** Decodes strict base64 (a `data:` URL prefix is allowed); anything else is a 400. */
export function decodeAudio(value: string): Buffer {
  const payload = value.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload) || payload.length % 4 === 1) {
    throw new AppError('bad_request', 'audio is not valid base64.', { errors: [{ pointer: '/audio', message: 'audio must be base64-encoded' }] });
  }
  if (Math.floor((payload.length * 3) / 4) > MAX_AUDIO_BYTES + 3)
    throw new AppError('payload_too_large', 'The recording is larger than 10 MB; record a shorter question.');
  const bytes = Buffer.from(payload, 'base64');
  if (!bytes.length) throw new AppError('bad_request', 'audio is empty.', { errors: [{ pointer: '/audio', message: 'audio is empty' }] });
  if (bytes.length > MAX_AUDIO_BYTES) throw new AppError('payload_too_large', 'The recording is larger than 10 MB; record a shorter question.');
  return bytes;
}

export interface ChatDeps {
  agent: Agent;
  models: Models | undefined;
  rateLimits: Pick<RateLimits, 'consume'>;
  /** Aborted when the service is stopping and streams must end now: each ends with an error status line saying so. */
  shutdown?: AbortSignal;
}

/** The largest transcription request: 10 MB of audio as base64 (4/3), with room for the JSON around it. */
const TRANSCRIBE_BODY = Math.ceil(MAX_AUDIO_BYTES * 1.4) + 64 * 1024;

const RESTARTING = 'The service is restarting; ask again in a moment.';

/** A JSON body that must be there (an absent body is read as null, which the schema refuses). */
async function readRequiredJson(req: EdgeRequest['req'], limit: number): Promise<unknown> {
  return (await readJsonBody(req, limit)) ?? null;
}

export function chatEndpoints({ agent, models, rateLimits, shutdown }: ChatDeps): Endpoint[] {
  async function transcribeAudio({ req, res, ip }: EdgeRequest): Promise<void> {
    // Everything that can refuse without the recording does, before its megabytes are read or decoded: no
    // provider, a declared size over the limit, the caller's spent budget.
    if (!models)
      throw new AppError(
        'transcription_not_configured',
        'Voice input is not configured: set OPENAI_API_KEY, or OPENAI_BASE_URL for an OpenAI-compatible server.',
      );
    if (Number(req.headers['content-length']) > TRANSCRIBE_BODY)
      throw new AppError('payload_too_large', 'The recording is larger than 10 MB; record a shorter question.');
    requireJsonType(req);
    const { headers } = await rateLimits.consume(transcribeLimit, ip);
    const body = parseInput(TranscribeRequest, await readRequiredJson(req, TRANSCRIBE_BODY));
    const audio = decodeAudio(body.audio);
    const { experimental_transcribe: transcribe } = await import('ai'); // loaded on first use (see models.server.ts)
    try {
      const result = await transcribe({
        model: models.transcription,
        audio,
        maxRetries: 1,
        ...(body.locale ? { providerOptions: { openai: { language: localeFacts[body.locale].speech.code } } } : {}),
      });
      const detected = result.language ? localeOfSpokenLanguage(result.language) : undefined;
      sendJson(
        req,
        res,
        200,
        { text: result.text.trim(), ...((detected ?? body.locale) ? { locale: detected ?? body.locale } : {}) },
        { ...headers, 'Cache-Control': 'no-store' },
      );
    } catch (error) {
      throw new AppError('unavailable', `Transcription failed: ${describeProviderError(error)}`, { headers });
    }
  }

  async function chat({ req, res, branch, ip }: EdgeRequest): Promise<void> {
    const body = parseInput(ChatRequest, await readRequiredJson(req, 256 * 1024));
    if (body.messages[body.messages.length - 1]!.role !== 'user') {
      throw new AppError('bad_request', 'The last message must be the visitor’s question (role "user").', {
        errors: [{ pointer: `/messages/${body.messages.length - 1}/role`, message: 'the last message must have role "user"' }],
      });
    }
    if (!models) throw new AppError('chat_not_configured', 'Chat is not configured: set OPENAI_API_KEY, or OPENAI_BASE_URL for an OpenAI-compatible server.');
    if (shutdown?.aborted) throw new AppError('unavailable', RESTARTING, { headers: { 'Retry-After': '5' } });
    const { headers } = await rateLimits.consume(chatLimit, ip);

    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    // A stop of the service ends the answer early but in order: the reader still gets the final status lines.
    let restarting = false;
    const onShutdown = () => {
      restarting = true;
      controller.abort();
    };
    shutdown?.addEventListener('abort', onShutdown, { once: true });
    res.writeHead(200, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'X-Accel-Buffering': 'no',
      ...headers,
    });
    res.flushHeaders();
    // A status line is written in one piece, so answer text can never land inside it.
    const status = (event: Record<string, unknown>) => body.events && !res.destroyed && res.write(`${RS}${JSON.stringify(event)}\n`);
    try {
      const answer = await agent.run(
        { branch, ip, principal: anonymous, signal: controller.signal },
        { messages: body.messages, locale: body.locale },
        {
          onTool: (name, input) => status({ type: 'tool', name, input }),
          onToolResult: (name, sources) => status({ type: 'tool-result', name, sources }),
          onText: (delta) => !res.destroyed && res.write(delta),
        },
      );
      // The sources with their titles and pages, so a client needs no further request to show them.
      status({ type: 'done', sources: answer.sources });
    } catch (error) {
      if (restarting || !controller.signal.aborted) {
        const message = restarting ? RESTARTING : error instanceof AppError ? error.message : 'The answer could not be completed.';
        if (body.events) {
          status({ type: 'error', message });
          status({ type: 'done', sources: [] });
        } else if (!res.destroyed) res.write(`\n\n[${message}]`);
      }
    } finally {
      shutdown?.removeEventListener('abort', onShutdown);
    }
    if (!res.destroyed) res.end();
  }

  return [
    { methods: ['POST'], path: '/api/chat', handle: chat },
    { methods: ['POST'], path: '/api/transcribe', handle: transcribeAudio },
  ];
}
