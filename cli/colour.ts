// Terminal colour, decided per stream: only on a TTY, never with NO_COLOR (https://no-color.org) or TERM=dumb.
// `--no-color` turns it off too; FORCE_COLOR turns it on for pagers like `less -R`.

/** Environment variables as the CLI reads them. */
export type Env = Record<string, string | undefined>;

export interface Colours {
  enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

export function colourEnabled(stream: { isTTY?: boolean }, env: Env, flag = true): boolean {
  if (!flag) return false;
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

export function colours(enabled: boolean): Colours {
  const wrap = (open: number, close: number) => (text: string) => (enabled && text ? `\x1b[${open}m${text}\x1b[${close}m` : text);
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    magenta: wrap(35, 39),
  };
}

/** The printed width of a string: escape codes take no room, CJK characters take two columns. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text.replace(/\x1b\[[0-9;]*m/g, '')) {
    const code = char.codePointAt(0)!;
    if (code < 32 || (code >= 0x300 && code < 0x370) || code === 0x200b) continue;
    width += isWide(code) ? 2 : 1;
  }
  return width;
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}
