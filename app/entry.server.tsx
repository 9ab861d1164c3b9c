// Renders every page on the server. The whole document is rendered before the answer starts (the pages
// defer nothing, and crawlers and people get the same complete HTML).
//
// React 18's streaming renderer writes its output in 2048-byte views; when a multibyte character does not
// fit at the end of one, it flushes the whole view anyway, unfilled tail included, and starts the character
// again in the next. Those tail bytes are NULs in the middle of CJK and accented text. No valid HTML
// contains a NUL (the HTML spec itself turns one in text into U+FFFD), so they are dropped on the way out.
import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import type { AppLoadContext, EntryContext } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { renderToPipeableStream } from 'react-dom/server';
import { NonceContext } from './utils/nonce.ts';

const ABORT_DELAY_MS = 5_000;

/** Removes NUL bytes from a byte stream. */
export class DropNulBytes extends Transform {
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (!chunk.includes(0)) return done(null, chunk);
    const out = Buffer.allocUnsafe(chunk.length);
    let length = 0;
    for (const byte of chunk) if (byte !== 0) out[length++] = byte;
    done(null, out.subarray(0, length));
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
): Promise<Response> {
  // The nonce the Content-Security-Policy header of this answer allows (server.ts): every inline script
  // Remix writes (the context, the route modules, scroll restoration) carries it.
  const nonce = loadContext.cspNonce;
  return new Promise((resolve, reject) => {
    let ready = false;
    const app = (
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
      </NonceContext.Provider>
    );
    const { pipe, abort } = renderToPipeableStream(app, {
      nonce,
      onAllReady() {
        ready = true;
        const body = new PassThrough();
        responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
        resolve(new Response(createReadableStreamFromReadable(body.pipe(new DropNulBytes())), { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors before the page is ready reject and are logged by Remix; later ones only here.
        if (ready) console.error(error);
      },
    });
    setTimeout(abort, ABORT_DELAY_MS);
  });
}
