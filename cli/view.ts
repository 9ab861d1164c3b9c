// What a human formatter is given (the colours, the width, the call's input) and what it gives back.
import type { Colours } from './colour.ts';

export interface View {
  colours: Colours;
  /** Terminal width; undefined when stdout is not a terminal (Markdown is then printed as written). */
  width?: number;
  /** The parsed input of the call, for context such as the path of a validated file. */
  input: Record<string, unknown>;
}

/** What a command prints: `out` to stdout, `note` to stderr, and an exit code other than 0 when the answer means failure. */
export interface Rendered {
  out: string;
  note?: string;
  exitCode?: number;
}
