// Zod builds a fast parser for each object schema with `new Function`, after probing once whether eval is
// allowed. The pages' CSP allows no eval, so the probe fails and zod parses without it, but the browser still
// reports the probe as a violation. `jitless` skips the probe and the compiled parser.
import type { $ZodConfig } from 'zod/v4/core';

/**
 * `z.config({ jitless: true })` in the browser, where the CSP forbids compiled parsers; the server keeps them.
 * Zod reads its configuration from `globalThis.__zod_globalConfig` and documents filling it in before it loads
 * (core.ts): importing `config` instead would put all of zod's core in a chunk every public page loads (the
 * bundler splits by file), for pages that build no schema. Called by root.tsx as it loads: zod probes when a
 * schema is built, and Remix evaluates the route modules, root first, before entry.client. A call, not an
 * import for its effect: this package declares `sideEffects: false`, so the bundler would drop that import.
 */
export function zodWithoutEval(): void {
  if (typeof document === 'undefined') return;
  const global = globalThis as typeof globalThis & { __zod_globalConfig?: $ZodConfig };
  global.__zod_globalConfig = Object.assign(global.__zod_globalConfig ?? {}, { jitless: true });
}
