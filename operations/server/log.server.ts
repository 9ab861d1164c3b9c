// The service's log: pino, one record per event. JSON lines when stdout is not a terminal or in production
// (what a log collector reads); short readable lines in a terminal, from a formatter of a few lines here
// rather than pino-pretty (one dependency tree less, and no worker thread for a developer's console).
// Records carry chosen fields only — never headers, cookies, tokens or bodies — so nothing secret can
// reach them by accident.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Branch } from '../contract/shared.ts';
import type { Config } from './config.server.ts';

export type { Logger };

export interface LoggerOptions {
  level: Config['LOG_LEVEL'];
  /** Default: `json` in production or when stdout is not a terminal, `pretty` otherwise. */
  format?: 'json' | 'pretty';
  /** Where the lines go (tests pass a collector); default stdout. */
  destination?: DestinationStream;
}

export function createLogger({ level, format, destination }: LoggerOptions): Logger {
  const pretty = (format ?? (process.env.NODE_ENV === 'production' || !process.stdout.isTTY ? 'json' : 'pretty')) === 'pretty';
  const out = pretty ? readable(destination ?? process.stdout) : (destination ?? stdoutDestination());
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Level names rather than numbers: what people grep for and collectors map.
      formatters: { level: (label) => ({ level: label }) },
      // A second line of defence: were a header object ever logged, these would not be.
      redact: { paths: ['headers.authorization', 'headers.cookie', 'req.headers.authorization', 'req.headers.cookie', 'token'], censor: '[redacted]' },
    },
    out,
  );
}

let stdout: DestinationStream | undefined;
/** One asynchronous writer on stdout per process, however many services it starts (tests start several); pino flushes it at exit. */
function stdoutDestination(): DestinationStream {
  return (stdout ??= pino.destination({ dest: 1, sync: false }));
}

/** `12:03:04.120 INFO  request GET /api/v1/entries 200 3.1 ms  ip=127.0.0.1 id=…`, coloured in a terminal. */
function readable(target: DestinationStream | NodeJS.WritableStream): DestinationStream {
  const colour = 'isTTY' in target && Boolean(target.isTTY);
  const paint = (code: number, text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);
  const levelColour: Record<string, number> = { error: 31, warn: 33, info: 32, debug: 90 };
  return {
    write(line: string) {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        target.write(line);
        return;
      }
      const { time, level, msg, pid: _pid, ...fields } = record;
      const label = String(level);
      const clock = typeof time === 'string' ? time.slice(11, 23) : '';
      let head = String(msg ?? '');
      if (fields.event === 'request') {
        head = `${String(fields.method)} ${String(fields.path)} ${String(fields.status)} ${String(fields.ms)} ms`;
        for (const key of ['event', 'method', 'path', 'status', 'ms']) delete fields[key];
      }
      const err = fields.err as { stack?: string } | undefined;
      delete fields.err;
      const rest = Object.entries(fields)
        .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join(' ');
      target.write(
        `${paint(90, clock)} ${paint(levelColour[label] ?? 0, label.toUpperCase().padEnd(5))} ${head}${rest ? `  ${paint(90, rest)}` : ''}\n${err?.stack ? `${err.stack}\n` : ''}`,
      );
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Request logs.

/** An incoming X-Request-Id is kept when it is short and plain (no spaces, quotes or control characters). */
const REQUEST_ID = /^[A-Za-z0-9._:+/=-]{1,128}$/;

export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Requests whose answer is logged, and the unexpected error (a 500) each one met, logged on its request line. */
const observed = new WeakSet<IncomingMessage>();
const unexpected = new WeakMap<IncomingMessage, unknown>();
/** The error code each refused request was answered with, logged on its line. */
const errorCodes = new WeakMap<IncomingMessage, string>();

/** Notes the documented error code a request is answered with (its request line says it). */
export function noteErrorCode(req: IncomingMessage, code: string): void {
  if (observed.has(req)) errorCodes.set(req, code);
}

/**
 * Records an error nobody expected (the 500 that says nothing to the caller), to be logged with the request's
 * id, method and route on its request line. A request no request log watches gets it on stderr at once.
 */
export function noteUnexpectedError(req: IncomingMessage, error: unknown): void {
  if (observed.has(req)) unexpected.set(req, error);
  else console.error('[vitae] unexpected error:', error);
}

/**
 * Called by the edge for every request once its route is known: echoes the request id and logs one line
 * when the answer is finished (or the client went away). `route` is the endpoint's path template, `page`
 * for the site, undefined when nothing matched.
 */
export function requestLog(logger: Logger, ipOf: (req: IncomingMessage) => string) {
  return function observe(req: IncomingMessage, res: ServerResponse, branch: Branch, route: string | undefined): void {
    const id = requestIdOf(req);
    observed.add(req);
    res.setHeader('X-Request-Id', id);
    if (!logger.isLevelEnabled('info') && !logger.isLevelEnabled('error')) return;
    const started = performance.now();
    const ip = ipOf(req); // now: a closed socket no longer knows its peer
    res.once('close', () => {
      const status = res.statusCode;
      const code = errorCodes.get(req);
      // A 503 that says a feature is not configured (no model provider) is the service as it was set up, not a failure:
      // at level error, every anonymous /api/v1/ask would page whoever watches the error rate.
      const level = status >= 500 && !code?.endsWith('_not_configured') ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      logger[level](
        {
          event: 'request',
          reqId: id,
          method: req.method,
          route: route ?? null,
          // The path without its query: queries are the caller's words, and never needed to find a request.
          path: q === -1 ? url : url.slice(0, q),
          status,
          ...(code ? { code } : {}),
          ms: Math.round((performance.now() - started) * 10) / 10,
          ip,
          branch,
          ...(res.writableFinished ? {} : { aborted: true }),
          ...(unexpected.has(req) ? { err: unexpected.get(req) } : {}),
        },
        'request',
      );
    });
  };
}
