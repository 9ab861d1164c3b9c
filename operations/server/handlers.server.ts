// The implementation of the whole operation list: each handler module is given only the services it
// uses, and `implement` checks by type that every operation has exactly one handler of the right shape.
import { operationNamed, operations, type AnyOperation, type AppError, type OutputOf } from '../contract/index.ts';
import { accountHandlers } from './accounts.server.ts';
import { adminHandlers } from './admin.server.ts';
import type { AuditTrail } from './audit.server.ts';
import type { EditorStore } from './editors.server.ts';
import { servedBuilds } from './build-cache.server.ts';
import { createAgent, type Agent } from './agent.server.ts';
import { aiEditHandlers } from './ai-edit.server.ts';
import { askHandlers } from './ask.server.ts';
import { chatHandlers, modelRefusal } from './chat.server.ts';
import { matchHandlers } from './match.server.ts';
import { mediaHandlers } from './media.server.ts';
import type { UiMessages } from './content-schema.server.ts';
import { anonymous, implement, type Implementation, type ImplementOptions } from './implement.server.ts';
import { publicHandlers } from './public.server.ts';
import type { Services } from './services.server.ts';
import { translationHandlers } from './translations.server.ts';

export interface OperationsLayer extends Implementation {
  /** The site's agent, whose tools are this implementation's public reads (also streamed by the chat operation). */
  agent: Agent;
  /**
   * Why `op` cannot run in this service at all (it `needsModel` and none is configured), or undefined: `invoke` asks
   * once the input is parsed; REST asks before reading a large body too, so a recording is not uploaded to be refused.
   */
  unconfigured(op: AnyOperation): AppError | undefined;
}

/**
 * `uiMessages`: the web app's English message table, so that what the operations label in words (admin_schema's tags
 * and kinds) is what the site says; the composition hands it over, as operations/ imports nothing from app/.
 */
export function implementOperations(
  services: Pick<Services, 'corpus' | 'repo' | 'pipeline' | 'models' | 'urls' | 'rateLimits'> & { editors: EditorStore; audit: AuditTrail },
  options: Omit<ImplementOptions, 'rateLimits' | 'audit' | 'unconfigured'> & { uiMessages: UiMessages },
): OperationsLayer {
  const { corpus, repo, pipeline, models, urls, rateLimits, editors, audit } = services;
  const { uiMessages, ...implementOptions } = options;
  const unconfigured = (op: AnyOperation) => modelRefusal(op, models);
  // The agent's tools run through this very layer, which is made just below (before any tool runs).
  const runTool = async (op: AnyOperation, input: unknown, { progress: _, admitted: __, ...ctx }: Parameters<Implementation['invoke']>[2]): Promise<unknown> =>
    (await layer.invoke(op, input, { ...ctx, principal: anonymous, door: 'agent' })).output;
  const agent = createAgent({ models, corpus, operations, runTool });
  const searchOp = operationNamed('search_subject');
  const implementation = implement(
    operations,
    {
      ...publicHandlers({ corpus }),
      ...askHandlers({ agent }),
      ...chatHandlers({ agent, models }),
      ...matchHandlers({
        corpus,
        agent,
        hasModel: () => models !== undefined,
        search: async (query, ctx, locale) => ((await runTool(searchOp, { query, limit: 3, locale }, ctx)) as OutputOf<typeof searchOp>).results,
      }),
      ...adminHandlers({ corpus, repo, pipeline, urls, uiMessages }),
      ...mediaHandlers({ repo, pipeline }),
      ...aiEditHandlers({ models, repo, corpus }),
      ...translationHandlers({ models, repo, corpus }),
      ...accountHandlers({ editors, audit }),
    },
    { ...implementOptions, rateLimits, audit, builds: servedBuilds(corpus), unconfigured },
  );
  // The agent's tools call through this object, as every surface does, so whatever wraps its invoke sees them too.
  const layer: OperationsLayer = { ...implementation, agent, unconfigured };
  return layer;
}
