// POST /api/chat (the agent, streamed as plain text with optional U+001E status lines) and
// POST /api/transcribe (voice input). Both check the body before any model call.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { experimental_transcribe as transcribe } from 'ai';
import { z } from 'zod';
import { AppError } from '../contract/errors.ts';
import { ChatRequest } from '../contract/agent.ts';
import { Locale, type Branch } from '../contract/shared.ts';
import { runAgent, describeProviderError } from '../server/agent.server.ts';
import { parseOrThrow } from './input.ts';
import { chatLimit, transcribeLimit } from '../server/rate-limit.server.ts';
import type { Runtime } from '../server/runtime.server.ts';
import { clientIp } from './client-ip.server.ts';
import { readBody, sendError, sendJson } from './http.server.ts';

const RS = '\u001e';
const MAX_AUDIO_BYTES = 10 * 1024 * 1024;

export const TranscribeRequest = z.object({
  audio: z.string().min(1, 'send the recording as base64 in "audio"'),
  mimeType: z.string().regex(/^audio\/[\w.+-]+(;.*)?$/, 'mimeType must be an audio type such as audio/webm').default('audio/webm'),
  locale: Locale.optional(),
});

const isoLanguage: Record<string, string> = { en: 'en', zh: 'zh', 'zh-hant': 'zh', ja: 'ja', fr: 'fr', es: 'es', eo: 'eo' };
const localeOfLanguage: Record<string, z.infer<typeof Locale>> = { en: 'en', english: 'en', zh: 'zh', chinese: 'zh', ja: 'ja', japanese: 'ja', fr: 'fr', french: 'fr', es: 'es', spanish: 'es', eo: 'eo', esperanto: 'eo' };

async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const text = (await readBody(req, limit)).toString('utf8');
  try {
    return JSON.parse(text || 'null');
  } catch (error) {
    throw new AppError('bad_request', `The request body is not valid JSON: ${(error as Error).message}`, { errors: [{ pointer: '', message: 'malformed JSON' }] });
  }
}

/** Decodes strict base64 (a `data:` URL prefix is allowed); anything else is a 400. */
export function decodeAudio(value: string): Buffer {
  const payload = value.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload) || payload.length % 4 === 1) {
    throw new AppError('bad_request', 'audio is not valid base64.', { errors: [{ pointer: '/audio', message: 'audio must be base64-encoded' }] });
  }
  if (Math.floor((payload.length * 3) / 4) > MAX_AUDIO_BYTES + 3) throw new AppError('payload_too_large', 'The recording is larger than 10 MB; record a shorter question.');
  const bytes = Buffer.from(payload, 'base64');
  if (!bytes.length) throw new AppError('bad_request', 'audio is empty.', { errors: [{ pointer: '/audio', message: 'audio is empty' }] });
  if (bytes.length > MAX_AUDIO_BYTES) throw new AppError('payload_too_large', 'The recording is larger than 10 MB; record a shorter question.');
  return bytes;
}

export function createChatHandler(runtime: Runtime, branch: Branch) {
  return async function handleChat(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    if (pathname !== '/api/chat' && pathname !== '/api/transcribe') return false;
    try {
      if (req.method !== 'POST') throw new AppError('method_not_allowed', `${pathname} accepts POST.`, { headers: { Allow: 'POST' } });
      const ip = clientIp(req, runtime.config.TRUST_PROXY);
      if (pathname === '/api/transcribe') {
        const body = parseOrThrow(TranscribeRequest, await readJson(req, Math.ceil(MAX_AUDIO_BYTES * 1.4) + 64 * 1024));
        const audio = decodeAudio(body.audio);
        if (!runtime.models) throw new AppError('transcription_not_configured', 'Voice input is not configured: set OPENAI_API_KEY, or OPENAI_BASE_URL for an OpenAI-compatible server.');
        const { headers } = await runtime.rateLimits.consume(transcribeLimit, ip);
        try {
          const result = await transcribe({
            model: runtime.models.transcription,
            audio,
            maxRetries: 1,
            ...(body.locale ? { providerOptions: { openai: { language: isoLanguage[body.locale] } } } : {}),
          });
          const detected = result.language ? localeOfLanguage[result.language.toLowerCase()] : undefined;
          sendJson(req, res, 200, { text: result.text.trim(), ...(detected ?? body.locale ? { locale: detected ?? body.locale } : {}) }, { ...headers, 'Cache-Control': 'no-store' });
        } catch (error) {
          throw new AppError('unavailable', `Transcription failed: ${describeProviderError(error)}`, { headers });
        }
        return true;
      }

      const body = parseOrThrow(ChatRequest, await readJson(req, 256 * 1024));
      if (body.messages[body.messages.length - 1]!.role !== 'user') {
        throw new AppError('bad_request', 'The last message must be the visitor’s question (role "user").', { errors: [{ pointer: `/messages/${body.messages.length - 1}/role`, message: 'the last message must have role "user"' }] });
      }
      if (!runtime.models) throw new AppError('chat_not_configured', 'Chat is not configured: set OPENAI_API_KEY, or OPENAI_BASE_URL for an OpenAI-compatible server.');
      const { headers } = await runtime.rateLimits.consume(chatLimit, ip);

      const controller = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'X-Accel-Buffering': 'no', ...headers });
      res.flushHeaders();
      // A status line is written in one piece, so answer text can never land inside it.
      const status = (event: Record<string, unknown>) => body.events && !res.destroyed && res.write(`${RS}${JSON.stringify(event)}\n`);
      const ctx = { runtime, branch, build: runtime.build(branch), clientIp: ip, signal: controller.signal };
      try {
        const answer = await runAgent(ctx, { messages: body.messages, locale: body.locale, signal: controller.signal }, {
          onTool: (name, input) => status({ type: 'tool', name, input }),
          onToolResult: (name, sources) => status({ type: 'tool-result', name, sources }),
          onText: (delta) => !res.destroyed && res.write(delta),
        });
        status({ type: 'done', sources: answer.sources.map((s) => s.slug) });
      } catch (error) {
        if (!controller.signal.aborted) {
          const message = error instanceof AppError ? error.message : 'The answer could not be completed.';
          if (body.events) {
            status({ type: 'error', message });
            status({ type: 'done', sources: [] });
          } else if (!res.destroyed) res.write(`\n\n[${message}]`);
        }
      }
      if (!res.destroyed) res.end();
      return true;
    } catch (error) {
      if (res.headersSent) res.destroy();
      else sendError(req, res, error);
      return true;
    }
  };
}
