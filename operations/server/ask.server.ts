// ask_subject: the agent, not streamed.
import type { askSubject } from '../contract/agent.ts';
import { clipped } from '../contract/errors.ts';
import { limits } from '../contract/limits.ts';
import type { Agent } from './agent.server.ts';
import type { Handlers } from './implement.server.ts';

export function askHandlers({ agent }: { agent: Agent }): Handlers<readonly [typeof askSubject]> {
  return {
    async ask_subject(input, ctx) {
      const { text, sources } = await agent.run(ctx, { messages: [...input.history, { role: 'user', content: input.question }], locale: input.locale });
      // The contract states how long an answer may be; a model that runs on is cut there.
      return { answer: clipped(text, limits.answer), locale: input.locale, sources };
    },
  };
}
