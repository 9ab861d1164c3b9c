// The two ways REST streams an operation that reports its progress (`streams`), both through `invoke` like any call:
// JSON lines (`Accept: application/x-ndjson`: match_role on the site) and the chat's text with status lines
// (`rest.stream: 'text-events'`, described in contract/define.ts). Until the call is admitted nothing is sent, so a refusal
// (a bad input, a spent budget) is the usual error answer with its status; a failure after that ends the stream in
// its own format. A stop of the service ends every open stream in order, with an error saying so.
import type { ServerResponse } from 'node:http';
import type { AnyOperation } from '../contract/define.ts';
import { AppError } from '../contract/errors.ts';
import type { CallContext, Implementation, InvokeOptions } from '../server/implement.server.ts';

const RS = '\u001e';

/** What a stream says when the service stops under it, and what a new one is told while the service is stopping. */
export const RESTARTING = 'The service is restarting; ask again in a moment.';

export interface StreamCall {
  layer: Pick<Implementation, 'invoke'>;
  op: AnyOperation;
  raw: Record<string, unknown>;
  /** The call's context, but for its signal, progress and admission, which the stream provides. */
  ctx: Omit<CallContext, 'signal' | 'progress' | 'admitted'>;
  options: InvokeOptions;
  /** Headers every answer of the operation carries (CORS). */
  headers: Record<string, string>;
  /** Aborted when the service is stopping and streams must end now. */
  shutdown?: AbortSignal;
}

/** Refuses a new stream while the service is stopping: it could not finish. */
export function refuseWhileStopping(shutdown: AbortSignal | undefined): void {
  if (shutdown?.aborted) throw new AppError('unavailable', RESTARTING, { headers: { 'Retry-After': '5' } });
}

/**
 * The signal of one streamed call: aborted when the client goes away or the service stops. `restarting()` tells the
 * two apart, so a stream cut by a stop still ends with its last lines while one whose reader left ends silently.
 */
function streamSignal(res: ServerResponse, shutdown: AbortSignal | undefined) {
  const controller = new AbortController();
  let restarting = false;
  const onClose = () => {
    if (!res.writableFinished) controller.abort();
  };
  const onShutdown = () => {
    restarting = true;
    controller.abort();
  };
  res.on('close', onClose);
  shutdown?.addEventListener('abort', onShutdown, { once: true });
  return {
    signal: controller.signal,
    restarting: () => restarting,
    /** Whether the stream should still say why it ends (its reader is there, or the service is stopping). */
    heard: () => restarting || !controller.signal.aborted,
    release: () => shutdown?.removeEventListener('abort', onShutdown),
  };
}

/** The error a stream ends with: the stop of the service, or what the call failed with (never a stack). */
function failureOf(error: unknown, restarting: boolean): AppError {
  if (restarting) return new AppError('unavailable', RESTARTING);
  return error instanceof AppError ? error : new AppError('internal', 'Something went wrong on our side; the server log has the details.');
}

/** Each progress event as a JSON line as it happens, then `{"type":"done","output":…}` (or `{"type":"error",…}`). */
export async function streamLines(call: StreamCall, res: ServerResponse): Promise<void> {
  const { layer, op, raw, ctx, options, headers } = call;
  const stream = streamSignal(res, call.shutdown);
  let started = false;
  let budget: Record<string, string> = {};
  const line = (event: unknown) => {
    if (!started) {
      started = true;
      res.writeHead(200, {
        'Content-Type': 'application/x-ndjson; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
        ...headers,
        ...budget,
      });
    }
    if (!res.destroyed) res.write(`${JSON.stringify(event)}\n`);
  };
  try {
    const admitted = (given: Record<string, string>) => (budget = given);
    const { output } = await layer.invoke(op, raw, { ...ctx, signal: stream.signal, progress: line, admitted }, options);
    line({ type: 'done', output });
  } catch (error) {
    if (!started) throw error;
    const failure = failureOf(error, stream.restarting());
    if (stream.heard()) line({ type: 'error', code: failure.code, message: failure.message, ...(failure.errors ? { errors: failure.errors } : {}) });
  } finally {
    stream.release();
  }
  if (!res.destroyed) res.end();
}

/**
 * `text-events`: `text/plain`, the operation's `text` events as they come and, when the input asks for `events`, its
 * other events as status lines, each written in one piece so answer text never lands inside one; last
 * `{"type":"done","sources":[…]}` from the output. The head goes out as soon as the call is admitted, so the reader
 * knows at once that an answer is coming; after that a failure is an error status line (without events, the
 * message in brackets after the text) and a done line without sources.
 */
export async function streamTextEvents(call: StreamCall, res: ServerResponse): Promise<void> {
  const { layer, op, raw, ctx, options, headers } = call;
  const withEvents = raw.events === true;
  const stream = streamSignal(res, call.shutdown);
  let started = false;
  const admitted = (budget: Record<string, string>) => {
    started = true;
    res.writeHead(200, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'X-Accel-Buffering': 'no',
      ...headers,
      ...budget,
    });
    res.flushHeaders();
  };
  const write = (text: string) => !res.destroyed && res.write(text);
  const status = (event: Record<string, unknown>) => withEvents && write(`${RS}${JSON.stringify(event)}\n`);
  const progress = ({ type, ...event }: { type: string; text?: unknown }) => {
    if (type === 'text') write(String(event.text));
    else status({ type, ...event });
  };
  try {
    const { output } = await layer.invoke(op, raw, { ...ctx, signal: stream.signal, progress, admitted }, options);
    status({ type: 'done', sources: (output as { sources?: unknown }).sources ?? [] });
  } catch (error) {
    if (!started) throw error;
    if (stream.heard()) {
      const { message } = failureOf(error, stream.restarting());
      if (withEvents) {
        status({ type: 'error', message });
        status({ type: 'done', sources: [] });
      } else write(`\n\n[${message}]`);
    }
  } finally {
    stream.release();
  }
  if (!res.destroyed) res.end();
}
