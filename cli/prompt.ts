// Asking the person at the terminal: a y/N question, or a hidden line (the admin token). Only when standard
// input and standard error are both terminals; a script never waits on a question it cannot answer.
import { exitCodes } from '../operations/contract/errors.ts';
import { CliFailure } from './failure.ts';
import type { CliIO } from './io.ts';

interface TtyInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
  readableEnded?: boolean;
}

/** True when a question can be asked and answered: stdin and stderr are terminals. */
export const isInteractive = (io: CliIO) => Boolean((io.stdin as TtyInput).isTTY && io.stderr.isTTY);

/** What was read past the end of a line, kept for the next question (a pasted "y\ny\n" answers two). */
const leftover = new WeakMap<NodeJS.ReadableStream, string>();

/** One line from `stdin` without its ending; undefined at the end of input. */
export function readLine(stdin: NodeJS.ReadableStream): Promise<string | undefined> {
  const kept = leftover.get(stdin) ?? '';
  const newline = kept.indexOf('\n');
  if (newline !== -1) {
    leftover.set(stdin, kept.slice(newline + 1));
    return Promise.resolve(kept.slice(0, newline).replace(/\r$/, ''));
  }
  if ((stdin as TtyInput).readableEnded) {
    leftover.delete(stdin);
    return Promise.resolve(kept || undefined);
  }
  return new Promise((resolve) => {
    let buffer = kept;
    const done = (line: string | undefined, rest: string) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.pause();
      leftover.set(stdin, rest);
      resolve(line);
    };
    const onData = (chunk: Buffer | string) => {
      buffer += chunk.toString();
      const at = buffer.indexOf('\n');
      if (at !== -1) done(buffer.slice(0, at).replace(/\r$/, ''), buffer.slice(at + 1));
    };
    const onEnd = () => done(buffer || undefined, '');
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.resume();
  });
}

/** Asks on stderr; true only for y or yes (the default is the second argument, shown in capitals). */
export async function confirm(io: CliIO, question: string, byDefault = false): Promise<boolean> {
  io.stderr.write(`${question} ${byDefault ? '[Y/n]' : '[y/N]'} `);
  const answer = (await readLine(io.stdin))?.trim().toLowerCase();
  if (answer === undefined) io.stderr.write('\n');
  if (!answer) return byDefault;
  return answer === 'y' || answer === 'yes';
}

/** Reads a line without echoing it (raw mode on a terminal); Ctrl-C cancels. */
export async function readHidden(io: CliIO, prompt: string): Promise<string> {
  const stdin = io.stdin as TtyInput;
  if (!stdin.setRawMode) {
    io.stderr.write(prompt);
    return (await readLine(stdin)) ?? '';
  }
  // Echo goes off before the prompt shows, so nothing typed at once after it is echoed.
  stdin.setRawMode(true);
  io.stderr.write(prompt);
  try {
    return await new Promise<string>((resolve, reject) => {
      let text = '';
      const finish = (error?: Error) => {
        stdin.off('data', onData);
        stdin.pause();
        io.stderr.write('\n');
        if (error) reject(error);
        else resolve(text);
      };
      const onData = (chunk: Buffer | string) => {
        for (const char of chunk.toString()) {
          if (char === '\r' || char === '\n' || char === '\u0004') return finish();
          if (char === '\u0003') return finish(new CliFailure(exitCodes.error, 'Cancelled.'));
          if (char === '\u007f' || char === '\b') text = text.slice(0, -1);
          else if (char >= ' ') text += char;
        }
      };
      stdin.on('data', onData);
      stdin.resume();
    });
  } finally {
    stdin.setRawMode(false);
  }
}
