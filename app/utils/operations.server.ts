// The site's loaders read through the same operations as the API: no second data path.
import type { AppLoadContext } from '@remix-run/node';
import { operationsByName } from '../../operations/contract/index.ts';
import { invoke } from '../../operations/server/handlers.server.ts';
import type { Branch } from '../../operations/contract/shared.ts';
import type { Runtime } from '../../operations/server/runtime.server.ts';

interface VitaeContext {
  runtime: Runtime;
  branch: Branch;
}

export async function callOperation<T = unknown>(context: AppLoadContext, name: string, input: Record<string, unknown> = {}): Promise<T> {
  const { runtime, branch } = context as unknown as VitaeContext;
  const op = operationsByName.get(name);
  if (!op) throw new Error(`Unknown operation ${name}`);
  return (await invoke(op, input, { runtime, branch, build: runtime.build(branch), clientIp: 'site' })) as T;
}
