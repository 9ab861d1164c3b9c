// ask_subject: the agent, not streamed.
import type { InputOf, OutputOf } from '../contract/define.ts';
import type { askSubject } from '../contract/agent.ts';
import { runAgent } from './agent.server.ts';
import type { OperationContext } from './context.server.ts';

export const askHandlers = {
  async ask_subject(input: InputOf<typeof askSubject>, ctx: OperationContext): Promise<OutputOf<typeof askSubject>> {
    const { text, sources } = await runAgent(ctx, { messages: [...input.history, { role: 'user', content: input.question }], locale: input.locale, signal: ctx.signal });
    return { answer: text, locale: input.locale, sources };
  },
};
