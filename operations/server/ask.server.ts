// ask_subject: the agent, not streamed.
import type { askSubject } from '../contract/agent.ts';
import type { Agent } from './agent.server.ts';
import type { Handlers } from './implement.server.ts';

export function askHandlers({ agent }: { agent: Agent }): Handlers<readonly [typeof askSubject]> {
  return {
    async ask_subject(input, ctx) {
      const { text, sources } = await agent.run(ctx, { messages: [...input.history, { role: 'user', content: input.question }], locale: input.locale });
      return { answer: text, locale: input.locale, sources };
    },
  };
}
