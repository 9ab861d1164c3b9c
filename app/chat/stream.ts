// Reads the /api/chat stream with `events: true`: answer text, interleaved with status lines made of U+001E, one
// JSON object and "\n" (`stream: 'text-events'` in operations/contract/define.ts). Chunks may cut anywhere, so a
// status line that has begun but not ended waits for the next chunk.

/** A source of the answer as the done line names it: its title and page (an absolute URL on the site). */
export interface ChatSource {
  slug: string;
  title: string;
  /** Absent when an older server named the source by bare slug only. */
  url?: string;
}

export type ChatEvent =
  | { type: 'tool'; name: string; input?: Record<string, unknown> }
  | { type: 'tool-result'; name: string; sources: string[] }
  | { type: 'error'; message: string }
  | { type: 'done'; sources: ChatSource[] };

export type StreamPart = { type: 'text'; text: string } | { type: 'event'; event: ChatEvent };

const RS = '\u001e';

export function createStreamParser() {
  let pending = '';
  let inEvent = false;
  return {
    push(chunk: string): StreamPart[] {
      const parts: StreamPart[] = [];
      let buffer = pending + chunk;
      pending = '';
      while (buffer) {
        if (!inEvent) {
          const start = buffer.indexOf(RS);
          if (start === -1) {
            parts.push({ type: 'text', text: buffer });
            break;
          }
          if (start > 0) parts.push({ type: 'text', text: buffer.slice(0, start) });
          buffer = buffer.slice(start + 1);
          inEvent = true;
          continue;
        }
        const end = buffer.indexOf('\n');
        if (end === -1) {
          pending = buffer;
          break;
        }
        const event = parseEvent(buffer.slice(0, end));
        if (event) parts.push({ type: 'event', event });
        buffer = buffer.slice(end + 1);
        inEvent = false;
      }
      return parts;
    },
    /** The stream ended: a status line cut short is dropped (it was never complete). */
    end(): StreamPart[] {
      const rest = inEvent ? [] : pending ? [{ type: 'text' as const, text: pending }] : [];
      pending = '';
      inEvent = false;
      return rest;
    },
  };
}

function parseEvent(json: string): ChatEvent | undefined {
  try {
    const value = JSON.parse(json) as Record<string, unknown>;
    const strings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
    switch (value.type) {
      case 'tool':
        return {
          type: 'tool',
          name: String(value.name ?? ''),
          input: value.input && typeof value.input === 'object' ? (value.input as Record<string, unknown>) : undefined,
        };
      case 'tool-result':
        return { type: 'tool-result', name: String(value.name ?? ''), sources: strings(value.sources) };
      case 'error':
        return { type: 'error', message: String(value.message ?? '') };
      case 'done':
        return { type: 'done', sources: Array.isArray(value.sources) ? value.sources.flatMap(sourceOf) : [] };
      default:
        return undefined; // a status type this client does not know yet
    }
  } catch {
    return undefined;
  }
}

/** A done line's source: a { slug, title, url } record, or a bare slug (older servers); anything else is skipped. */
function sourceOf(value: unknown): ChatSource[] {
  if (typeof value === 'string') return value ? [{ slug: value, title: value }] : [];
  if (!value || typeof value !== 'object') return [];
  const { slug, title, url } = value as Record<string, unknown>;
  if (typeof slug !== 'string' || !slug) return [];
  return [{ slug, title: typeof title === 'string' && title.trim() ? title : slug, ...(typeof url === 'string' && url ? { url } : {}) }];
}

/**
 * Reads a response body to its end, handing each run of parts to `onParts` as it arrives. Rejects when
 * the request is aborted or the connection fails, as the body's reader does.
 */
export async function readChatStream(body: ReadableStream<Uint8Array>, onParts: (parts: StreamPart[]) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = createStreamParser();
  const hand = (parts: StreamPart[]) => {
    if (parts.length) onParts(parts);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hand(parser.push(decoder.decode(value, { stream: true })));
  }
  hand([...parser.push(decoder.decode()), ...parser.end()]);
}

/** Seconds to wait from a Retry-After header (seconds or an HTTP date); `fallback` when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now(), fallback = 60): number {
  if (!header) return fallback;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? fallback : Math.max(0, Math.ceil((date - now) / 1000));
}
