// Reads the streamed answer of POST /api/chat with status events: answer text as it arrives, and the
// U+001E status lines (tool steps, errors, the final sources) picked out of it. The chat operation is the site's
// own, not a generated command, so this is the one request the CLI makes by hand.
import { ApiError, NetworkError } from '../operations/adapters/client.ts';
import { exitCodes, type ErrorBody } from '../operations/contract/errors.ts';
import { CliFailure } from './failure.ts';
import { userAgent } from './settings.ts';

const RS = '\u001e';

export interface ChatStreamOptions {
  url: string;
  messages: Array<{ role: string; content: string }>;
  locale: string;
  fetch?: typeof fetch;
  onText: (text: string) => void;
  onTool?: (name: string) => void;
}

export async function streamChat(options: ChatStreamOptions): Promise<{ sources: string[] }> {
  let res: Response;
  try {
    res = await (options.fetch ?? fetch)(`${options.url}/api/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': userAgent },
      body: JSON.stringify({ messages: options.messages, locale: options.locale, events: true }),
      signal: AbortSignal.timeout(300_000),
    });
  } catch (error) {
    throw new NetworkError(options.url, error);
  }
  if (!res.ok || !res.body) {
    const text = await res.text();
    let body: ErrorBody;
    try {
      body = JSON.parse(text) as ErrorBody;
    } catch {
      body = { code: 'http_error', message: text.slice(0, 200) || res.statusText };
    }
    throw new ApiError(res.status, body, res.headers);
  }

  let sources: string[] = [];
  let failure: string | undefined;
  let buffer = '';
  let inEvent = false;
  const decoder = new TextDecoder();
  const drain = () => {
    for (;;) {
      if (!inEvent) {
        const start = buffer.indexOf(RS);
        if (start === -1) {
          if (buffer) options.onText(buffer);
          buffer = '';
          return;
        }
        if (start > 0) options.onText(buffer.slice(0, start));
        buffer = buffer.slice(start + 1);
        inEvent = true;
      }
      const end = buffer.indexOf('\n');
      if (end === -1) return; // the rest of the status line is still on its way
      const event = JSON.parse(buffer.slice(0, end)) as { type: string; name?: string; message?: string; sources?: Array<string | { slug: string }> };
      buffer = buffer.slice(end + 1);
      inEvent = false;
      if (event.type === 'tool' && event.name) options.onTool?.(event.name);
      if (event.type === 'error') failure = event.message;
      if (event.type === 'done') sources = (event.sources ?? []).map((s) => (typeof s === 'string' ? s : s.slug));
    }
  };
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      drain();
    }
  } catch (error) {
    throw new NetworkError(options.url, error);
  }
  buffer += decoder.decode();
  drain();
  if (failure) throw new CliFailure(exitCodes.unavailable, `\nThe answer could not be completed: ${failure}`);
  return { sources };
}
