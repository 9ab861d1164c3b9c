// What a handler gets besides its input: the branch it serves, the runtime, and who is calling.
import type { Branch } from '../contract/shared.ts';
import type { Build } from '../build/corpus.ts';
import type { Runtime } from './runtime.server.ts';

export interface OperationContext {
  runtime: Runtime;
  branch: Branch;
  build: Build;
  /** Client IP (for rate limits), already resolved per TRUST_PROXY. */
  clientIp: string;
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
}

export type Handler<I = any, O = unknown> = (input: I, ctx: OperationContext) => O | Promise<O>;
